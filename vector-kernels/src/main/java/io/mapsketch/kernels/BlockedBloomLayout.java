package io.mapsketch.kernels;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * The blocked Bloom filter's layout, the contract between the kernels and the file format
 * (section "Blocked Bloom block layout" of {@code docs/file-format.md}), and the steps both
 * implementations share.
 *
 * <pre>
 * filter   = blocks x 64-byte block, block b at byte offset + 64 * b
 * block    = 8 little-endian 64-bit words, word w at byte 8 * w of the block
 * block(h) = unsignedMultiplyHigh(h, blocks)                      (h * blocks) &gt;&gt; 64, in [0, blocks)
 * p_w      = h * SALTS[w]                                         mod 2^64, w = 0..7
 * bits_w   = 1 &lt;&lt; (p_w &gt;&gt;&gt; 58)                                    k = 8: one bit per word
 *          | 1 &lt;&lt; ((p_w &gt;&gt;&gt; 52) &amp; 63)                             k = 16: a second bit per word
 * </pre>
 */
final class BlockedBloomLayout {

    /** Bytes per block: one cache line. */
    static final int BLOCK_BYTES = 64;
    /** 64-bit words per block. */
    static final int WORDS = BLOCK_BYTES / Long.BYTES;
    /**
     * One odd multiplier per word: the first eight outputs of SplitMix64 seeded with
     * {@code 0x6D61707365746368}, each with its lowest bit set.
     */
    static final long[] SALTS = {
        0x2B15F49B70A7A617L, 0xC3939FE1179D2B93L, 0xE50E5BA9EA2D71A3L, 0x8E5BB871E77742ABL,
        0x15F15714DB6D4BB3L, 0x6ECE962F08B582D3L, 0x15D525631075CB03L, 0xA9EF238EB306396BL,
    };
    /** Shift that leaves the top six bits of a product: the first bit's index in its word. */
    static final int FIRST_BIT_SHIFT = 58;
    /** Shift that leaves the next six bits of a product: the second bit's index when k = 16. */
    static final int SECOND_BIT_SHIFT = 52;

    /** Aligned 64-bit access for the atomic add; the facade checks the alignment. */
    private static final VarHandle WORD =
            ValueLayout.JAVA_LONG.withOrder(Layouts.ORDER).varHandle();

    private BlockedBloomLayout() {}

    /** Returns the block of a hash: {@code floor(hash * blocks / 2^64)}, unsigned, in {@code [0, blocks)}. */
    static long blockIndex(long hash, long blocks) {
        return Math.unsignedMultiplyHigh(hash, blocks);
    }

    /** Returns the byte offset of a hash's block in the segment. */
    static long blockOffset(long filterOffset, long hash, long blocks) {
        return filterOffset + blockIndex(hash, blocks) * BLOCK_BYTES;
    }

    /** Returns the bits a hash sets in word {@code word} of its block; Java shifts use the low six bits. */
    static long wordPattern(long hash, int word, int bitsPerKey) {
        long product = hash * SALTS[word];
        long bits = 1L << (product >>> FIRST_BIT_SHIFT);
        return bitsPerKey == 8 ? bits : bits | 1L << (product >>> SECOND_BIT_SHIFT);
    }

    /**
     * Sets a hash's bits with atomic ORs, skipping every word that already holds its bits (a plain
     * load, so an add of a present key writes nothing and dirties no page).
     *
     * @return whether this call set a bit that was not set before
     */
    static boolean addAtomic(MemorySegment filter, long blockOffset, long hash, int bitsPerKey) {
        boolean changed = false;
        for (int w = 0; w < WORDS; w++) {
            long pattern = wordPattern(hash, w, bitsPerKey);
            long wordOffset = blockOffset + (long) w * Long.BYTES;
            if (((long) WORD.get(filter, wordOffset) & pattern) != pattern) {
                long before = (long) WORD.getAndBitwiseOr(filter, wordOffset, pattern);
                changed |= (before & pattern) != pattern;
            }
        }
        return changed;
    }
}
