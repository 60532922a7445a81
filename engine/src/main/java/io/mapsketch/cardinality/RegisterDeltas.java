package io.mapsketch.cardinality;

/**
 * What a raise of registers changes in the summary line's numbers ({@link SummaryLineLayout}): the
 * counts word (empty registers in its low half, registers at the largest rank {@code top} in its high
 * half) and the power sum, for one register or for the byte registers of a word. Pure arithmetic, small
 * enough to inline into a raise.
 */
final class RegisterDeltas {

    private RegisterDeltas() {}

    /** The counts-word delta of a register raised from {@code a} to {@code b > a}. */
    static long counts(int a, int b, int top) {
        return (a == 0 ? 1 : 0) + (b == top ? SummaryLineLayout.SATURATED : 0);
    }

    /** The power-sum delta of a register raised from {@code a} to {@code b > a} (modulo 2^64). */
    static long powerSum(int a, int b, int top) {
        return power(b, top) - power(a, top);
    }

    /**
     * The counts-word delta of the byte registers of a word (up to eight) that grew from {@code before}
     * to {@code after}.
     */
    static long counts(long before, long after, int top) {
        long delta = 0;
        for (int shift = 0; shift < Long.SIZE; shift += Byte.SIZE) {
            int a = register(before, shift);
            int b = register(after, shift);
            if (a != b) {
                delta += counts(a, b, top);
            }
        }
        return delta;
    }

    /** The power-sum delta of the byte registers of a word that grew from {@code before} to {@code after}. */
    static long powerSum(long before, long after, int top) {
        long delta = 0;
        for (int shift = 0; shift < Long.SIZE; shift += Byte.SIZE) {
            delta += power(register(after, shift), top) - power(register(before, shift), top);
        }
        return delta;
    }

    /**
     * Tells whether a byte register of a word lies above the largest rank: a merge or fold from a source
     * damaged after it was opened. The change that wrote it is then left in flight, so the line is not
     * trusted and the estimate reads the registers, which report the damage.
     */
    static boolean aboveTop(long word, int top) {
        for (int shift = 0; shift < Long.SIZE; shift += Byte.SIZE) {
            if (register(word, shift) > top) {
                return true;
            }
        }
        return false;
    }

    private static int register(long word, int shift) {
        return (int) (word >>> shift) & 0xFF;
    }

    private static long power(int rank, int top) {
        return rank > 0 && rank < top ? 1L << (top - 1 - rank) : 0;
    }
}
