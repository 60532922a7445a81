package io.mapsketch.similarity;

import io.mapsketch.internal.ScratchPool;
import io.mapsketch.kernels.MinHashKernels;
import io.mapsketch.memory.AtomicSegment;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * The SuperMinHash update of a row ({@link MinHashDerivation#SUPER_MINHASH}, scheme 2).
 *
 * <p>An item of hash h takes steps j = 0, 1, ..., k - 1 of a Fisher-Yates shuffle of the slots: step
 * j draws {@code r = derive(h, 2 j)} and {@code u = derive(h, 2 j + 1)}, swaps places j and
 * {@code j + floor(u (k - j) / 2^64)} of the item's permutation (the identity at the start), and
 * offers slot {@code p[j]} the value {@code j << 48 | r >>> 16}. So each slot is offered one value
 * per item, and every value of step j is below every value of step j + 1. The item stops after the
 * step equal to the largest step held by a slot of the row: no later value could lower a slot, so
 * the row is exactly the minimum over the full permutations. A histogram of the steps the slots
 * hold, made at each call and kept as slots drop, gives that bound. A batch of n items runs every
 * item through at most the l steps that n items need to fill an empty row 99% of the time (the bound
 * of hash4j's SuperMinHash), then, only if a slot still holds step l or later, every item again from
 * step l. Where step 0 alone likely settles the row (the u slots above step 0 would keep, on average,
 * at most half a slot above it: {@code u (1 - 1/k)^n <= 0.5}), a pass of step 0 alone goes first, and
 * the steps from 1 follow only if a slot holds step 1 or later after it.
 *
 * <p>The steps run on a copy of the row in a heap array, which goes back into the row if a slot
 * dropped: with plain stores for the {@code EXCLUSIVE} writer, and for {@code SHARED} writers slot
 * by slot with a compare-and-set retried while the slot is still above the copy's value (the copy is
 * read a whole slot at a time, so each copied slot is at or above the row's value when it is lowered,
 * and the steps that bound the copy's items also bound the row's).
 *
 * <p>Cost: a pass over the k slots per call (copy and histogram), then per item at most l steps (l =
 * 12 for 1,024 items at k = 1,024), fewer in a row that already holds many items, one step where
 * the step-0 pass settles the row (a row that holds its set already, or 128 empty slots against
 * 1,024 items), and a pass to store the row if it changed. Scratch per concurrent caller: k longs and 2k + 1 ints.
 */
final class SuperMinHashRow {

    /** Bits of a slot below its step. */
    static final int FRACTION_BITS = 48;

    private static final ValueLayout.OfLong SLOT = ValueLayout.JAVA_LONG.withOrder(ByteOrder.LITTLE_ENDIAN);

    /** The item's mark in a place of the permutation. */
    private static final long ITEM = 0xFFFF_FFFF_0000_0000L;
    /** The slot in a place of the permutation. */
    private static final long PLACE = 0xFFFF_FFFFL;

    private final int slots;
    /** {@code log(1 - 0.99^(1/k))}, of {@link #cycleLimit}. */
    private final double cycleConstant;
    /** {@code log(1 - 1/k)}: the log of the chance that step 0 of an item misses a given slot. */
    private final double logMissRate;

    private final ScratchPool<Scratch> scratch;

    /** A copy of the row, the histogram of its steps, and the permutation drawn so far. */
    private static final class Scratch {
        final long[] row;
        /** Slots holding each step; entry k counts the empty slots. */
        final int[] histogram;
        /**
         * Place i of the current item's permutation: {@code item << 32 | p[i]} where the item wrote it;
         * any other value stands for the identity, p[i] = i.
         */
        final long[] permutation;

        final long[] one = new long[1];
        /** Slots lowered by the current call. */
        int lowered;

        private long item;

        Scratch(int slots) {
            row = new long[slots];
            histogram = new int[slots + 1];
            permutation = new long[slots];
        }

        /** A new item's mark in {@link #permutation}, which no earlier item of this scratch left there. */
        long nextItem() {
            if (item == Integer.MAX_VALUE) {
                Arrays.fill(permutation, 0);
                item = 0;
            }
            return ++item << 32;
        }
    }

    /**
     * Keys worth hashing for one update of a row of k slots: k ln(2k), the keys after which step 0
     * alone likely settles an empty row, so that a set of that size fills a row in one update (whose
     * cost is about k ln(100 k) steps however many keys it holds, where updates of fewer keys each pay
     * again for the slots the earlier ones left high); at least 4,096 and at most 65,536.
     */
    static int batchKeys(int slots) {
        return (int) Math.clamp(Math.ceil(slots * Math.log(2.0 * slots)), 4096, 65_536);
    }

    SuperMinHashRow(int slots) {
        this.slots = slots;
        this.cycleConstant = Math.log(-Math.expm1(Math.log(0.99) / slots));
        this.logMissRate = Math.log1p(-1.0 / slots);
        this.scratch = new ScratchPool<>(() -> new Scratch(slots));
    }

    /** Lowers the row at byte {@code offset} of a table only this writer changes, by one item. */
    void update(MemorySegment table, long offset, long hash) {
        Scratch pieces = scratch.borrow();
        pieces.one[0] = hash;
        update(table, offset, pieces.one, 0, 1, pieces);
        scratch.giveBack(pieces);
    }

    /** Lowers the row at byte {@code offset} of a table only this writer changes, by {@code hashes[from, from + count)}. */
    void update(MemorySegment table, long offset, long[] hashes, int from, int count) {
        Scratch pieces = scratch.borrow();
        update(table, offset, hashes, from, count, pieces);
        scratch.giveBack(pieces);
    }

    private void update(MemorySegment table, long offset, long[] hashes, int from, int count, Scratch pieces) {
        long[] row = pieces.row;
        MemorySegment.copy(table, SLOT, offset, row, 0, slots);
        if (update(row, hashes, from, count, pieces)) {
            MemorySegment.copy(row, 0, table, SLOT, offset, slots);
        }
    }

    /** Lowers the row at byte {@code offset} of a table other writers may lower at once, by one item. */
    void updateShared(AtomicSegment words, long offset, long hash) {
        Scratch pieces = scratch.borrow();
        pieces.one[0] = hash;
        updateShared(words, offset, pieces.one, 0, 1, pieces);
        scratch.giveBack(pieces);
    }

    /** Lowers the row at byte {@code offset} of a table other writers may lower at once, by {@code hashes[from, from + count)}. */
    void updateShared(AtomicSegment words, long offset, long[] hashes, int from, int count) {
        Scratch pieces = scratch.borrow();
        updateShared(words, offset, hashes, from, count, pieces);
        scratch.giveBack(pieces);
    }

    private void updateShared(AtomicSegment words, long offset, long[] hashes, int from, int count, Scratch pieces) {
        long[] row = pieces.row;
        for (int s = 0; s < slots; s++) {
            row[s] = words.getLong(offset + (long) s * Long.BYTES);
        }
        if (update(row, hashes, from, count, pieces)) {
            for (int s = 0; s < slots; s++) {
                MinHashRows.lowerSlot(words, offset + (long) s * Long.BYTES, row[s]);
            }
        }
    }

    /** Lowers the copy by the items; tells whether a slot dropped. */
    private boolean update(long[] row, long[] hashes, int from, int count, Scratch pieces) {
        int[] histogram = pieces.histogram;
        Arrays.fill(histogram, 0);
        for (int s = 0; s < slots; s++) {
            histogram[step(row[s])]++;
        }
        int top = slots;
        while (histogram[top] == 0) {
            top--;
        }
        pieces.lowered = 0;
        int end = from + count;
        int limit = cycleLimit(count);
        int next = 0;
        if (stepZeroLikelySettles(slots - histogram[0], count)) {
            top = firstSteps(row, hashes, from, end, top, pieces);
            next = 1;
        }
        if (top >= next && next < limit) {
            top = pass(row, hashes, from, end, next, limit, top, pieces);
        }
        if (top >= limit) {
            pass(row, hashes, from, end, limit, slots, top, pieces);
        }
        return pieces.lowered != 0;
    }

    /** Step 0 of the items {@code hashes[from, end)}; returns the largest step held afterwards. */
    private int firstSteps(long[] row, long[] hashes, int from, int end, int top, Scratch pieces) {
        for (int e = from; e < end; e++) {
            top = offer(row, firstSlot(hashes[e]), 0, hashes[e], top, pieces);
        }
        return top;
    }

    /** {@link #steps} of the items {@code hashes[from, end)}; returns the largest step held afterwards. */
    private int pass(long[] row, long[] hashes, int from, int end, int offerFrom, int limit, int top, Scratch pieces) {
        for (int e = from; e < end; e++) {
            top = steps(row, hashes[e], offerFrom, limit, top, pieces);
        }
        return top;
    }

    /**
     * Whether step 0 of {@code count} items likely leaves no slot above step 0, given {@code unsettled}
     * slots above it: the expected number left, {@code unsettled (1 - 1/k)^count}, is at most one half.
     */
    private boolean stepZeroLikelySettles(int unsettled, int count) {
        return unsettled * Math.exp(count * logMissRate) <= 0.5;
    }

    /**
     * Steps (at most 99% of the time enough) that {@code count} distinct items need to fill an empty
     * row: with n items and k slots, the step each slot's minimum takes is below l for all slots with
     * probability {@code (1 - (1 - l/k)^n)^k}, which is at least 0.99 for
     * {@code l = ceil(k (1 - (1 - 0.99^(1/k))^(1/n)))}. In [1, k].
     */
    private int cycleLimit(int count) {
        return (int) Math.min(slots, Math.max(1, Math.ceil(slots * -Math.expm1(cycleConstant / count))));
    }

    /**
     * Runs an item through steps 0 up to (not including) the smaller of {@code limit} and the largest
     * step the row holds plus one, offering the values of the steps from {@code offerFrom} on; returns
     * the largest step held afterwards.
     */
    private int steps(long[] row, long hash, int offerFrom, int limit, int top, Scratch pieces) {
        int first = firstSlot(hash);
        if (offerFrom == 0) {
            top = offer(row, first, 0, hash, top, pieces);
        }
        if (Math.min(limit, top + 1) <= 1) {
            return top;
        }
        long[] permutation = pieces.permutation;
        long item = pieces.nextItem();
        permutation[first] = item;
        for (int j = 1; j < Math.min(limit, top + 1); j++) {
            int swap = j + (int) Math.unsignedMultiplyHigh(MinHashKernels.derive(hash, 2 * j + 1), slots - j);
            long atJ = permutation[j];
            long atSwap = permutation[swap];
            int slot = (atSwap & ITEM) == item ? (int) atSwap : swap;
            permutation[swap] = item | ((atJ & ITEM) == item ? atJ & PLACE : j);
            if (j >= offerFrom) {
                top = offer(row, slot, j, hash, top, pieces);
            }
        }
        return top;
    }

    /** The slot step 0 of an item offers its value to: place 0 of its permutation after the first swap. */
    private int firstSlot(long hash) {
        return (int) Math.unsignedMultiplyHigh(MinHashKernels.derive(hash, 1), slots);
    }

    /**
     * Offers a slot the value of step j of an item, drawing the value only if the slot holds step j
     * or a later one; keeps the histogram and returns the largest step held.
     */
    private int offer(long[] row, int slot, int j, long hash, int top, Scratch pieces) {
        long current = row[slot];
        if (current >>> FRACTION_BITS < j) {
            return top;
        }
        long value = (long) j << FRACTION_BITS | MinHashKernels.derive(hash, 2 * j) >>> (64 - FRACTION_BITS);
        if (Long.compareUnsigned(value, current) >= 0) {
            return top;
        }
        row[slot] = value;
        pieces.lowered++;
        int was = step(current);
        return was == j ? top : moveInHistogram(was, j, top, pieces);
    }

    /** Counts a slot that held step {@code was} as holding step {@code j}; returns the largest step held. */
    private static int moveInHistogram(int was, int j, int top, Scratch pieces) {
        int[] histogram = pieces.histogram;
        histogram[j]++;
        if (--histogram[was] == 0 && was == top) {
            while (histogram[top] == 0) {
                top--;
            }
        }
        return top;
    }

    /**
     * The step a slot holds, at most k: k for an empty slot, and for any value no key offers (a file's
     * slot may hold any value), which every step's value lowers, as it lowers an empty slot.
     */
    private int step(long slot) {
        return (int) Math.min(slot >>> FRACTION_BITS, slots);
    }
}
