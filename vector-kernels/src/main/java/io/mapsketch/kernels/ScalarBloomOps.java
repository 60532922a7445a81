package io.mapsketch.kernels;

import static io.mapsketch.kernels.BlockedBloomLayout.WORDS;
import static io.mapsketch.kernels.BlockedBloomLayout.wordPattern;
import static io.mapsketch.kernels.Layouts.LONG;

import java.lang.foreign.MemorySegment;

/**
 * The scalar reference for the per-block steps of {@link BloomOps}: the eight words of a block one
 * after another, the missing bits gathered without branches.
 */
final class ScalarBloomOps implements BloomOps {

    @Override
    public boolean contains(MemorySegment filter, long block, long hash, int bitsPerKey) {
        long missing = 0;
        for (int w = 0; w < WORDS; w++) {
            missing |= wordPattern(hash, w, bitsPerKey) & ~filter.get(LONG, block + (long) w * Long.BYTES);
        }
        return missing == 0;
    }

    @Override
    public void setBits(MemorySegment filter, long block, long hash, int bitsPerKey) {
        for (int w = 0; w < WORDS; w++) {
            long wordOffset = block + (long) w * Long.BYTES;
            filter.set(LONG, wordOffset, filter.get(LONG, wordOffset) | wordPattern(hash, w, bitsPerKey));
        }
    }
}
