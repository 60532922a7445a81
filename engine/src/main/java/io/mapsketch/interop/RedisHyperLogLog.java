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
 * Redis HyperLogLogs in and out: the value of a Redis key that {@code PFADD} built (the bytes {@code GET}
 * returns, dense or sparse) becomes a mapped {@link HyperLogLog} file that keeps hashing as Redis does
 * ({@link HyperLogLogBuilder#redisHashing()}): adds raise the registers Redis would raise and
 * {@link HyperLogLog#estimate()} answers what {@code PFCOUNT} answers. Such a sketch exports back to a
 * dense string that {@code SET} stores and every {@code PF*} command reads. What is kept and lost is in
 * {@code docs/interop.md}.
 *
 * <p>Errors: bytes that are not a Redis HyperLogLog string are a {@link ForeignSketchException} naming
 * the source, the offset and the fault, and nothing is written. Cost: one pass over the foreign bytes;
 * an import then creates the file as a builder does.
 */
public final class RedisHyperLogLog {

    /** The format's name, as the command spells it. */
    public static final String FORMAT = RedisHllBytes.FORMAT;

    private RedisHyperLogLog() {}

    /**
     * Creates a HyperLogLog file holding the registers of a Redis string, hashing as Redis does, and
     * opens it. The file appears complete, or not at all.
     *
     * @param redisString the value of the Redis key, as {@code GET} returns it
     * @param file where to create the sketch
     * @param mode {@code SHARED} or {@code EXCLUSIVE}
     * @param options as {@link HyperLogLogBuilder#create}
     * @return the open sketch: precision 14, {@link CardinalityEstimator#REDIS_PFCOUNT}, no items counted
     * @throws ForeignSketchException if the bytes are not a Redis HyperLogLog string (nothing is written)
     * @throws java.nio.file.FileAlreadyExistsException if the file exists and overwriting was not asked for
     * @throws IOException if the file cannot be written
     */
    public static HyperLogLog importFrom(byte[] redisString, Path file, OpenMode mode, CreateOption... options)
            throws IOException {
        return create(RedisHllBytes.decode(redisString, null), file, mode, options);
    }

    /**
     * Creates a HyperLogLog file holding the registers of a Redis string read from {@code source}, which
     * holds exactly the value's bytes; as {@link #importFrom(byte[], Path, OpenMode, CreateOption...)}.
     *
     * @param source a file of the value's bytes
     * @param file where to create the sketch
     * @param mode {@code SHARED} or {@code EXCLUSIVE}
     * @param options as {@link HyperLogLogBuilder#create}
     * @return the open sketch
     * @throws ForeignSketchException naming {@code source} if its bytes are not a Redis HyperLogLog string
     * @throws IOException if the source cannot be read or the file cannot be written
     */
    public static HyperLogLog importFrom(Path source, Path file, OpenMode mode, CreateOption... options)
            throws IOException {
        byte[] bytes = ForeignFiles.read(source, FORMAT, RedisHllBytes.LONGEST, "Redis HyperLogLog string");
        return create(RedisHllBytes.decode(bytes, source), file, mode, options);
    }

    /**
     * Returns the registers of a sketch that hashes as Redis does as a dense Redis string, its cached
     * cardinality marked stale so that Redis computes {@code PFCOUNT} afresh: {@code SET} it under a key.
     *
     * @param sketch a HyperLogLog that hashes as Redis does, imported or built with
     *     {@link HyperLogLogBuilder#redisHashing()}; not modified
     * @return 12,304 bytes
     * @throws IllegalArgumentException if the sketch hashes otherwise, or with another seed than Redis's
     * @throws IllegalStateException if the sketch is closed
     */
    public static byte[] exportTo(HyperLogLog sketch) {
        requireRedisHashing(sketch);
        byte[] registers = new byte[RedisHllBytes.REGISTERS];
        MemorySegment payload = SketchInternals.payload(sketch).segment();
        MemorySegment.copy(payload, ValueLayout.JAVA_BYTE, 0, registers, 0, registers.length);
        for (int i = 0; i < registers.length; i++) {
            if (registers[i] < 0 || registers[i] > RedisHllBytes.MAX_RANK) {
                throw new IllegalStateException(sketch + ": register " + i + " holds " + registers[i]
                        + ", above the largest rank " + RedisHllBytes.MAX_RANK + "; the file was corrupted while open");
            }
        }
        return RedisHllBytes.encodeDense(registers);
    }

    /**
     * Writes {@link #exportTo(HyperLogLog)} to a file, which then holds exactly the Redis string's bytes;
     * an existing file is replaced in one step (the new bytes go to a temporary file beside it first).
     *
     * @param sketch a HyperLogLog that hashes as Redis does; not modified
     * @param destination the file to write
     * @throws IllegalArgumentException if the sketch hashes otherwise, or with another seed than Redis's
     * @throws IOException if the file cannot be written (an existing one is left as it was)
     */
    public static void exportTo(HyperLogLog sketch, Path destination) throws IOException {
        ForeignFiles.replace(destination, exportTo(sketch));
    }

    private static HyperLogLog create(byte[] registers, Path file, OpenMode mode, CreateOption... options)
            throws IOException {
        return HyperLogLog.builder()
                .precision(14)
                .redisHashing()
                .registers(registers)
                .create(file, mode, options);
    }

    private static void requireRedisHashing(HyperLogLog sketch) {
        String name = sketch.file().map(Path::toString).orElse("an anonymous HyperLogLog");
        if (sketch.estimator() != CardinalityEstimator.REDIS_PFCOUNT) {
            throw new IllegalArgumentException(name + ": hashes keys with the "
                    + SketchInternals.region(sketch).header().hashScheme() + " scheme at precision "
                    + sketch.precision() + ", so its registers mean nothing to Redis; only a sketch"
                    + " that hashes as Redis does (imported from Redis, or built with HyperLogLog.builder()"
                    + ".precision(14).redisHashing()) exports to a Redis string");
        }
        if (sketch.hashSeed() != HyperLogLog.REDIS_SEED) {
            throw new IllegalArgumentException(name + ": hashes as Redis does but with seed 0x"
                    + Long.toHexString(sketch.hashSeed()) + ", not Redis's 0xadc83b19, so its registers are not"
                    + " those Redis would hold");
        }
    }
}
