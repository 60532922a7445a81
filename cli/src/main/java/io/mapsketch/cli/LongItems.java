package io.mapsketch.cli;

import io.mapsketch.membership.BloomFilter;
import io.mapsketch.membership.BloomProbing;
import io.mapsketch.membership.MembershipFilter;
import java.nio.charset.StandardCharsets;

/**
 * Items of a filter whose keys are {@code long}s, a Guava filter of the long funnel
 * ({@link BloomProbing#GUAVA_LONG}): each item (an argument or a line) is read as a decimal
 * {@code long}, optionally signed, as {@link Long#parseLong(String)} reads it, and the filter takes that
 * {@code long} as Guava's {@code Funnels.longFunnel()} does (its eight little-endian bytes).
 */
final class LongItems {

    private LongItems() {}

    /** Tells whether the filter's items are decimal {@code long}s. */
    static boolean takesLongs(MembershipFilter filter) {
        return filter instanceof BloomFilter bloom && bloom.probing() == BloomProbing.GUAVA_LONG;
    }

    /**
     * Reads one item as a decimal {@code long}.
     *
     * @throws IllegalArgumentException if it is not one
     */
    static long parse(byte[] bytes, int offset, int length) {
        String text = new String(bytes, offset, length, StandardCharsets.UTF_8);
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException notDecimal) {
            throw new IllegalArgumentException(
                    "'" + text + "' is not a decimal long, and a Bloom filter of Guava's long"
                            + " funnel takes its items as decimal longs");
        }
    }
}
