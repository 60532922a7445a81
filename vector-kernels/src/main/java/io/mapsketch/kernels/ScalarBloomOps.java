package io.mapsketch.kernels;

import static io.mapsketch.kernels.BlockedBloomLayout.BLOCK_BYTES;
import static io.mapsketch.kernels.BlockedBloomLayout.WORDS;
import static io.mapsketch.kernels.BlockedBloomLayout.wordPattern;
import static io.mapsketch.kernels.Layouts.LONG;

import java.lang.foreign.MemorySegment;

/**
 * The scalar reference for the per-block steps of {@link BloomOps}: the eight words of a block one
 * after another, the missing bits gathered without branches. Each step reads its block through a
 * 64-byte slice, so that the words' bounds checks are against a length the compiler knows and fold
 * into the slice's one check ({@code docs/design/membership.md}, "Bloom filters: the scalar kernels'
 * single-key add and lookup").
 */
final class ScalarBloomOps implements BloomOps {

    @Override
    public boolean contains(MemorySegment filter, long block, long hash, int bitsPerKey) {
        return missingBits(filter.asSlice(block, BLOCK_BYTES), hash, bitsPerKey) == 0;
    }

    @Override
    public void setBits(MemorySegment filter, long block, long hash, int bitsPerKey) {
        orBits(filter.asSlice(block, BLOCK_BYTES), hash, bitsPerKey);
    }

    /** One slice and one test of the eight words, which are written only if a bit is missing. */
    @Override
    public boolean setMissingBits(MemorySegment filter, long block, long hash, int bitsPerKey) {
        MemorySegment words = filter.asSlice(block, BLOCK_BYTES);
        if (missingBits(words, hash, bitsPerKey) == 0) {
            return false;
        }
        orBits(words, hash, bitsPerKey);
        return true;
    }

    private static long missingBits(MemorySegment words, long hash, int bitsPerKey) {
        long missing = 0;
        for (int w = 0; w < WORDS; w++) {
            missing |= wordPattern(hash, w, bitsPerKey) & ~words.get(LONG, (long) w * Long.BYTES);
        }
        return missing;
    }

    private static void orBits(MemorySegment words, long hash, int bitsPerKey) {
        for (int w = 0; w < WORDS; w++) {
            long wordOffset = (long) w * Long.BYTES;
            words.set(LONG, wordOffset, words.get(LONG, wordOffset) | wordPattern(hash, w, bitsPerKey));
        }
    }
}
