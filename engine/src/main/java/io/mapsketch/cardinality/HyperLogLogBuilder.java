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

    HyperLogLogBuilder() {}

    /**
     * Starts the new sketch with these registers instead of empty ones, as if the keys that raised
     * them had been added (the items counter stays 0): for registers read from another system that
     * hashes as this sketch will. A file appears with them, or not at all.
     *
     * @param registers {@code 2^p} register values, each a rank in [0, 65 - p]; copied
     * @return this builder
     * @throws IllegalArgumentException at {@code create} if the length is not {@code 2^p} or a
     *     value is outside [0, 65 - p]
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

    @Override
    protected HashScheme hashScheme() {
        return scheme;
    }

    /**
     * Sets the precision p: m = 2^p registers of one byte, relative standard error
     * {@code 1.04 / sqrt(m)}. Required.
     *
     * @param precision p, in [4, 18]; 14 gives 16 KiB and 0.81%
     * @return this builder
     * @throws IllegalArgumentException if out of range
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
        if (registers != null) {
            HyperLogLogLayout.requireRegisters(registers, precision);
        }
        return new HyperLogLogFormat(precision);
    }

    @Override
    protected ContentWriter<HyperLogLog> initialContent() {
        if (registers == null) {
            return null;
        }
        MemorySegment content = MemorySegment.ofArray(registers);
        return sketch -> sketch.raiseTo(content);
    }

    @Override
    protected HyperLogLog wrap(SketchRegion region) throws IOException {
        return HyperLogLog.read(region);
    }
}
