package io.mapsketch.cardinality;

import io.mapsketch.SketchBuilder;
import io.mapsketch.memory.HashScheme;
import io.mapsketch.memory.SketchRegion;
import java.io.IOException;
import java.lang.foreign.MemorySegment;

/** Builds a HyperLogLog sketch from its precision. */
@SuppressWarnings("exports")
public final class HyperLogLogBuilder extends SketchBuilder<HyperLogLogBuilder, HyperLogLog> {

    private int precision;
    private HashScheme scheme = HashScheme.XXH3_64;
    private byte[] registers;
    /** DataSketches' HIP accumulator to start from, or {@code NaN} for none. */
    private double hipAccumulator = Double.NaN;
    /** DataSketches' coupon table to start from, or {@code null} for none. */
    private int[] coupons;

    HyperLogLogBuilder() {}

    /**
     * Starts the new sketch with these registers instead of empty ones, as if the keys that raised
     * them had been added (the items counter stays 0): for registers read from another system that
     * hashes as this sketch will. A file appears with them, or not at all.
     *
     * @param registers {@code 2^p} register values, each a rank in [0, 65 - p] (in [0, 63] with
     *     {@link #dataSketchesHashing()}); copied
     * @return this builder
     * @throws IllegalArgumentException at {@code create} if the length is not {@code 2^p} or a
     *     value is outside that range
     */
    public HyperLogLogBuilder registers(byte[] registers) {
        this.registers = registers.clone();
        return this;
    }

    /**
     * Hashes keys as Redis's {@code PFADD} does: MurmurHash64A of the key's bytes with Redis's seed
     * {@code 0xadc83b19} (which this sets), a {@code long} key as its decimal string (the bytes a Redis
     * client sends for it), the register from the hash's low 14 bits and the rank from the others; the
     * sketch estimates with {@code PFCOUNT} and exports to a Redis string
     * ({@link io.mapsketch.interop.RedisHyperLogLog}). Redis's precision is 14: {@code create} refuses
     * another.
     *
     * @return this builder
     */
    public HyperLogLogBuilder redisHashing() {
        this.scheme = HashScheme.REDIS_HLL;
        return seed(HyperLogLog.REDIS_SEED);
    }

    /**
     * Hashes keys as DataSketches' {@code HllSketch.update} does: Murmur3_x64_128 of the key's bytes with
     * DataSketches' seed 9001 (which this sets), a {@code long} key as its eight little-endian bytes (the
     * {@code update(long)} overload), a string as its UTF-8 bytes ({@code update(String)}), an empty key
     * no update; the register is the low p bits of the hash's first half and the value the leading zeros
     * of its second half plus one, capped at 63. The sketch starts, as DataSketches does, in LIST mode and keeps
     * DataSketches' coupons until its {@code EXCLUSIVE} writer promotes them where DataSketches does (a
     * {@code SHARED} writer's add promotes first); it estimates as DataSketches does
     * ({@link CardinalityEstimator#DATASKETCHES_COUPON}, {@code _HIP}, {@code _COMPOSITE}) and exports to its
     * image ({@link io.mapsketch.interop.DataSketchesHll}). Precision (lgK) 4 to 21.
     *
     * @return this builder
     */
    public HyperLogLogBuilder dataSketchesHashing() {
        this.scheme = HashScheme.DATASKETCHES_MURMUR3_128;
        return seed(HyperLogLog.DATASKETCHES_SEED);
    }

    /**
     * Starts DataSketches' HIP accumulator at this value, for registers ({@link #registers}) that a
     * DataSketches sketch built in order: the sketch then answers {@link CardinalityEstimator#DATASKETCHES_HIP}
     * and goes on accumulating as DataSketches would. Registers given without it have an unknown history,
     * and the sketch answers {@link CardinalityEstimator#DATASKETCHES_COMPOSITE}.
     *
     * @param accumulator the accumulator, finite and at least 0
     * @return this builder
     * @throws IllegalArgumentException if the accumulator is negative or not finite; at {@code create} if
     *     the sketch does not hash as DataSketches does
     */
    public HyperLogLogBuilder hipAccumulator(double accumulator) {
        if (!(accumulator >= 0 && accumulator < Double.POSITIVE_INFINITY)) {
            throw new IllegalArgumentException("hipAccumulator = " + accumulator + ", must be finite and >= 0");
        }
        this.hipAccumulator = accumulator;
        return this;
    }

    /**
     * Starts a sketch that hashes as DataSketches does in DataSketches' LIST or SET mode with this coupon table,
     * entry for entry as DataSketches' updatable image holds it (instead of the empty LIST a new sketch of that
     * scheme starts in): 8 entries are a LIST, coupons in arrival order then zeros; {@code 2^5} to
     * {@code 2^(p-3)} entries a SET, each coupon where DataSketches' probe sequence put it. The sketch then
     * adds and promotes as DataSketches would from that state.
     *
     * @param table the entries, each 0 or a coupon {@code value << 26 | address} of value 1 to 63; copied
     * @return this builder
     * @throws IllegalArgumentException at {@code create} if the sketch does not hash as DataSketches does,
     *     registers are given too, or the table is not one DataSketches holds (naming the length or the entry)
     */
    public HyperLogLogBuilder dataSketchesCoupons(int[] table) {
        this.coupons = table.clone();
        return this;
    }

    @Override
    protected HashScheme hashScheme() {
        return scheme;
    }

    /**
     * Sets the precision p: m = 2^p registers of one byte, relative standard error
     * {@code 1.04 / sqrt(m)}. Required.
     *
     * @param precision p, in [4, 18]; 14 gives 16 KiB and 0.81%; in [4, 21] with {@link #dataSketchesHashing()}
     * @return this builder
     * @throws IllegalArgumentException if outside [4, 21]; at {@code create} if above 18 and the sketch does
     *     not hash as DataSketches does
     */
    public HyperLogLogBuilder precision(int precision) {
        HyperLogLogSizing.registers(precision);
        this.precision = precision;
        return this;
    }

    @Override
    protected HyperLogLogBuilder self() {
        return this;
    }

    @Override
    protected HyperLogLogFormat format() {
        requireSet("precision", precision != 0);
        boolean dataSketches = scheme == HashScheme.DATASKETCHES_MURMUR3_128;
        if (precision > HyperLogLog.MAX_PRECISION && !dataSketches) {
            throw new IllegalArgumentException("precision = " + precision + ", must be in [4, 18] for " + scheme
                    + " hashing (in [4, 21] only with dataSketchesHashing())");
        }
        if (!Double.isNaN(hipAccumulator) && !dataSketches) {
            throw new IllegalArgumentException("hipAccumulator = " + hipAccumulator
                    + " is DataSketches' state, and the sketch hashes with " + scheme + ": call dataSketchesHashing()");
        }
        if (coupons != null && (!dataSketches || registers != null || !Double.isNaN(hipAccumulator))) {
            throw new IllegalArgumentException("dataSketchesCoupons is DataSketches' LIST or SET state: it needs"
                    + " dataSketchesHashing() and no registers or hipAccumulator");
        }
        if (registers != null) {
            HyperLogLogLayout.requireRegisters(registers, precision, HyperLogLogLayout.maxRank(scheme, precision));
        }
        return new HyperLogLogFormat(precision, dataSketches);
    }

    @Override
    protected ContentWriter<HyperLogLog> initialContent() {
        boolean startsInCoupons = registers == null && Double.isNaN(hipAccumulator);
        if (startsInCoupons && scheme == HashScheme.DATASKETCHES_MURMUR3_128) {
            int[] table = coupons;
            return sketch -> ((DataSketchesRegisters) sketch.registers).startCoupons(table);
        }
        if (startsInCoupons) {
            return null;
        }
        MemorySegment content = MemorySegment.ofArray(registers == null ? new byte[1 << precision] : registers);
        double accumulator = hipAccumulator;
        return sketch -> {
            sketch.registers.merge(content);
            if (!Double.isNaN(accumulator)) {
                ((DataSketchesRegisters) sketch.registers).resume(accumulator);
            }
        };
    }

    @Override
    protected HyperLogLog wrap(SketchRegion region) throws IOException {
        return HyperLogLog.read(region);
    }
}
