package io.mapsketch.interop;

import io.mapsketch.CreateOption;
import io.mapsketch.OpenMode;
import io.mapsketch.cardinality.CardinalityEstimator;
import io.mapsketch.cardinality.HyperLogLog;
import io.mapsketch.cardinality.HyperLogLogBuilder;
import io.mapsketch.internal.SketchInternals;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;

/**
 * DataSketches HLL sketches in and out: an image of datasketches-java's {@code HllSketch} (what
 * {@code toCompactByteArray()} or {@code toUpdatableByteArray()} write, what Spark's {@code hll_sketch_agg}
 * returns; any mode, LIST, SET or HLL, any type, HLL_4, HLL_6 or HLL_8) becomes a mapped {@link HyperLogLog}
 * file of precision lgK that keeps hashing as DataSketches does ({@link HyperLogLogBuilder#dataSketchesHashing()})
 * and answers DataSketches' estimate for the image; such a sketch exports back to an updatable image, byte for
 * byte the one DataSketches writes after the same updates: a LIST or SET image while the sketch holds
 * DataSketches' coupons (a LIST or SET image imports into that mode and its {@code EXCLUSIVE} writer
 * promotes at DataSketches' coupon count), an HLL_8 image after. What is kept and lost is in
 * {@code docs/interop.md}.
 *
 * <p>Errors: bytes that are not such an image are a {@link ForeignSketchException} naming the source, the
 * offset and the fault, and nothing is written. Cost: one pass over the image; an import then creates the
 * file (or the anonymous sketch) as a builder does; an export, one pass over the registers.
 */
public final class DataSketchesHll {

    /** The format's name, as the command spells it. */
    public static final String FORMAT = DataSketchesHllLayout.FORMAT;

    /** The longest image: an updatable HLL_4 of lgK 21 with an aux table as large as its registers. */
    private static final long LONGEST = DataSketchesHllLayout.REGISTERS_START
            + (1L << (DataSketchesHllLayout.MAX_LG_K - 1))
            + 4L * (1L << DataSketchesHllLayout.MAX_LG_K);

    private DataSketchesHll() {}

    /**
     * Creates a HyperLogLog file holding a DataSketches image's registers and HIP state, hashing as
     * DataSketches does, and opens it. The file appears complete, or not at all.
     *
     * @param image the bytes of one image
     * @param file where to create the sketch
     * @param mode {@code SHARED} or {@code EXCLUSIVE}
     * @param options as {@link HyperLogLogBuilder#create}
     * @return the open sketch: precision lgK, estimating as DataSketches does for the image (the HIP
     *     accumulator of an in-order image, the coupon estimate of a LIST or SET image, which it keeps, the
     *     composite estimate of an out-of-order one), no items counted
     * @throws ForeignSketchException if the bytes are not a DataSketches HLL image (nothing is written)
     * @throws java.nio.file.FileAlreadyExistsException if the file exists and overwriting was not asked for
     * @throws IOException if the file cannot be written
     */
    public static HyperLogLog importFrom(byte[] image, Path file, OpenMode mode, CreateOption... options)
            throws IOException {
        return create(DataSketchesHllReader.read(image, null), file, mode, options);
    }

    /**
     * Makes an anonymous HyperLogLog (off-heap, backed by no file, freed by {@code close()}) holding a
     * DataSketches image's registers and HIP state, as {@link #importFrom(byte[], Path, OpenMode, CreateOption...)}
     * puts them in a file. A {@code SHARED} sketch's {@code SketchImage.toBytes} is then that file's image, HIP
     * state in order; an image of the {@code EXCLUSIVE} writer, taken while it is open, marks its HIP state out of
     * order, as for every such writer.
     *
     * @param image the bytes of one image
     * @param mode {@code SHARED} (to take its image) or {@code EXCLUSIVE}
     * @return the sketch, estimating as DataSketches does for the image
     * @throws ForeignSketchException if the bytes are not a DataSketches HLL image
     */
    public static HyperLogLog importAnonymous(byte[] image, OpenMode mode) throws ForeignSketchException {
        return builderOf(DataSketchesHllReader.read(image, null)).createAnonymous(mode);
    }

    /**
     * Creates a HyperLogLog file from the DataSketches image in {@code source}, which holds exactly the
     * image's bytes; as {@link #importFrom(byte[], Path, OpenMode, CreateOption...)}.
     *
     * @param source a file of the image's bytes
     * @param file where to create the sketch
     * @param mode {@code SHARED} or {@code EXCLUSIVE}
     * @param options as {@link HyperLogLogBuilder#create}
     * @return the open sketch
     * @throws ForeignSketchException naming {@code source} if its bytes are not a DataSketches HLL image
     * @throws IOException if the source cannot be read or the file cannot be written
     */
    public static HyperLogLog importFrom(Path source, Path file, OpenMode mode, CreateOption... options)
            throws IOException {
        byte[] bytes = ForeignFiles.read(source, FORMAT, LONGEST, "DataSketches HLL image");
        return create(DataSketchesHllReader.read(bytes, source), file, mode, options);
    }

    /**
     * Returns a sketch that hashes as DataSketches does as an updatable image, as datasketches-java's
     * {@code toUpdatableByteArray()} writes it for an HLL_8 sketch: in a coupon mode, the LIST or SET table
     * the sketch keeps; else the registers, the HIP accumulator and the out-of-order flag the sketch keeps,
     * kxq sums and numAtCurMin recounted. {@code HllSketch.heapify} reads it.
     *
     * @param sketch a HyperLogLog that hashes as DataSketches does, imported or built with
     *     {@link HyperLogLogBuilder#dataSketchesHashing()}; not modified
     * @return {@code 40 + 2^lgK} bytes in HLL mode, {@code 40} for a LIST, {@code 12 + 4 * 2^lgArr} for a SET
     * @throws IllegalArgumentException if the sketch hashes otherwise, or with another seed than 9001
     * @throws IllegalStateException if the sketch is closed or a register holds more than 63
     */
    public static byte[] exportTo(HyperLogLog sketch) {
        requireDataSketchesHashing(sketch);
        int lgK = sketch.precision();
        int[] coupons = sketch.dataSketchesCoupons();
        if (coupons != null) {
            return DataSketchesHllWriter.updatableCoupons(lgK, coupons);
        }
        byte[] registers = new byte[1 << lgK];
        MemorySegment payload = SketchInternals.payload(sketch).segment();
        MemorySegment.copy(payload, ValueLayout.JAVA_BYTE, 0, registers, 0, registers.length);
        DataSketchesHllUpdate update = DataSketchesHllUpdate.startingEmpty(lgK);
        for (int i = 0; i < registers.length; i++) {
            if (registers[i] < 0 || registers[i] > DataSketchesHllLayout.MAX_VALUE) {
                throw new IllegalStateException(sketch + ": register " + i + " holds " + registers[i]
                        + ", above the largest value " + DataSketchesHllLayout.MAX_VALUE
                        + "; the file was corrupted while open");
            }
            if (registers[i] != 0) {
                update.registerRaised(0, registers[i]);
            }
        }
        boolean outOfOrder = sketch.estimator() == CardinalityEstimator.DATASKETCHES_COMPOSITE;
        DataSketchesHipState counted = update.state();
        // DataSketches zeroes the accumulator of a sketch out of order (its copyAs does, and so its image).
        DataSketchesHipState state = new DataSketchesHipState(
                outOfOrder ? 0 : sketch.hipAccumulator(), counted.kxq0(), counted.kxq1(), 0, counted.numAtCurMin());
        return DataSketchesHllWriter.updatableHll8(new DataSketchesHllImage.Registers(
                lgK, DataSketchesHllType.HLL_8, false, outOfOrder, registers, state));
    }

    /**
     * Writes {@link #exportTo(HyperLogLog)} to a file, which then holds exactly the image's bytes; an
     * existing file is replaced in one step (the new bytes go to a temporary file beside it first).
     *
     * @param sketch a HyperLogLog that hashes as DataSketches does; not modified
     * @param destination the file to write
     * @throws IllegalArgumentException if the sketch hashes otherwise, or with another seed than 9001
     * @throws IOException if the file cannot be written (an existing one is left as it was)
     */
    public static void exportTo(HyperLogLog sketch, Path destination) throws IOException {
        ForeignFiles.replace(destination, exportTo(sketch));
    }

    private static HyperLogLog create(DataSketchesHllImage image, Path file, OpenMode mode, CreateOption... options)
            throws IOException {
        return builderOf(image).create(file, mode, options);
    }

    /** The builder of the sketch an image imports as: its lgK, DataSketches' hashing, its coupons or registers. */
    private static HyperLogLogBuilder builderOf(DataSketchesHllImage image) {
        HyperLogLogBuilder builder =
                HyperLogLog.builder().precision(image.lgK()).dataSketchesHashing();
        if (image instanceof DataSketchesHllImage.Coupons coupons) {
            return builder.dataSketchesCoupons(coupons.table());
        }
        DataSketchesHllImage.Registers registers = ((DataSketchesHllImage.Registers) image).asHll8();
        builder.registers(registers.registers());
        if (!registers.outOfOrder()) {
            builder.hipAccumulator(registers.state().hipAccumulator());
        }
        return builder;
    }

    private static void requireDataSketchesHashing(HyperLogLog sketch) {
        String name = sketch.file().map(Path::toString).orElse("an anonymous HyperLogLog");
        CardinalityEstimator estimator = sketch.estimator();
        if (estimator != CardinalityEstimator.DATASKETCHES_HIP
                && estimator != CardinalityEstimator.DATASKETCHES_COMPOSITE
                && estimator != CardinalityEstimator.DATASKETCHES_COUPON) {
            throw new IllegalArgumentException(name + ": does not hash keys as DataSketches does (its estimator is "
                    + estimator + "), so its registers mean nothing to DataSketches; only a sketch imported from a"
                    + " DataSketches image, or built with HyperLogLog.builder().dataSketchesHashing(), exports to one");
        }
        if (sketch.hashSeed() != HyperLogLog.DATASKETCHES_SEED) {
            throw new IllegalArgumentException(name + ": hashes as DataSketches does but with seed "
                    + sketch.hashSeed() + ", not DataSketches' 9001, so its registers are not those DataSketches"
                    + " would hold");
        }
    }
}
