package io.mapsketch.kernels;

import static io.mapsketch.kernels.BlockedBloomLayout.BLOCK_BYTES;
import static io.mapsketch.kernels.BlockedBloomLayout.FIRST_BIT_SHIFT;
import static io.mapsketch.kernels.BlockedBloomLayout.SALTS;
import static io.mapsketch.kernels.BlockedBloomLayout.SECOND_BIT_SHIFT;
import static io.mapsketch.kernels.Layouts.ORDER;

import java.lang.foreign.MemorySegment;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * Vector API twin of {@link ScalarBloomOps}. A block is one 512-bit vector (two at 256 bits, four
 * at 128): the key's pattern is built in the lanes (broadcast the hash, multiply by the salts,
 * shift, then a variable left shift of ones), and one load, one AND-NOT and one test decide a whole
 * block.
 */
final class VectorBloomOps implements BloomOps {

    private static final VectorSpecies<Long> S = VectorKernels.LONGS;
    private static final int PART_BYTES = S.vectorByteSize();
    private static final int PARTS = BLOCK_BYTES / PART_BYTES;

    /**
     * No branch on the block's contents: answers are as random as the keys, and a mispredicted
     * branch per key cost batch lookups about as much as the cache misses they overlap.
     */
    @Override
    public boolean contains(MemorySegment filter, long block, long hash, int bitsPerKey) {
        LongVector missing = missingBits(filter, block, hash, bitsPerKey, 0);
        for (int part = 1; part < PARTS; part++) {
            missing = missing.or(missingBits(filter, block, hash, bitsPerKey, part));
        }
        return !missing.compare(VectorOperators.NE, 0L).anyTrue();
    }

    @Override
    public void setBits(MemorySegment filter, long block, long hash, int bitsPerKey) {
        for (int part = 0; part < PARTS; part++) {
            long partOffset = block + (long) part * PART_BYTES;
            LongVector.fromMemorySegment(S, filter, partOffset, ORDER)
                    .or(pattern(hash, part, bitsPerKey))
                    .intoMemorySegment(filter, partOffset, ORDER);
        }
    }

    /** One load and one pattern per part, which a part that lacks none of its bits does not write. */
    @Override
    public boolean setMissingBits(MemorySegment filter, long block, long hash, int bitsPerKey) {
        boolean changed = false;
        for (int part = 0; part < PARTS; part++) {
            long partOffset = block + (long) part * PART_BYTES;
            LongVector words = LongVector.fromMemorySegment(S, filter, partOffset, ORDER);
            LongVector bits = pattern(hash, part, bitsPerKey);
            if (bits.lanewise(VectorOperators.AND_NOT, words)
                    .compare(VectorOperators.NE, 0L)
                    .anyTrue()) {
                words.or(bits).intoMemorySegment(filter, partOffset, ORDER);
                changed = true;
            }
        }
        return changed;
    }

    /** The key's bits that one part of its block lacks, one word per lane. */
    private static LongVector missingBits(MemorySegment filter, long block, long hash, int bitsPerKey, int part) {
        LongVector words = LongVector.fromMemorySegment(S, filter, block + (long) part * PART_BYTES, ORDER);
        return pattern(hash, part, bitsPerKey).lanewise(VectorOperators.AND_NOT, words);
    }

    /** The key's bits in the words of one part of its block, one word per lane. */
    private static LongVector pattern(long hash, int part, int bitsPerKey) {
        LongVector products = LongVector.broadcast(S, hash).mul(LongVector.fromArray(S, SALTS, part * S.length()));
        LongVector ones = LongVector.broadcast(S, 1L);
        LongVector bits = ones.lanewise(VectorOperators.LSHL, products.lanewise(VectorOperators.LSHR, FIRST_BIT_SHIFT));
        if (bitsPerKey == 8) {
            return bits;
        }
        return bits.or(ones.lanewise(VectorOperators.LSHL, products.lanewise(VectorOperators.LSHR, SECOND_BIT_SHIFT)));
    }
}
