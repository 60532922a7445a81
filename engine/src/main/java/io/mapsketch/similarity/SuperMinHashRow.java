package io.mapsketch.similarity;

import io.mapsketch.internal.ScratchPool;
import io.mapsketch.kernels.MinHashKernels;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * The SuperMinHash update of one signature ({@link MinHashDerivation#SUPER_MINHASH}, scheme 2), with
 * plain loads and stores: for callers that own the signature (the {@code EXCLUSIVE} writer's row, or a
 * {@code SHARED} writer's copy of one).
 *
 * <p>An item of hash h takes steps j = 0, 1, ..., k - 1 of a Fisher-Yates shuffle of the slots: step
 * j draws {@code r = derive(h, 2 j)} and {@code u = derive(h, 2 j + 1)}, swaps places j and
 * {@code j + floor(u (k - j) / 2^64)} of the item's permutation (the identity at the start), and
 * offers slot {@code p[j]} the value {@code j << 48 | r >>> 16}. So each slot is offered one value
 * per item, and every value of step j is below every value of step j + 1. The item stops after the
 * step equal to the largest step held by a slot of the row: no later value could lower a slot, so
 * the row is exactly the minimum over the full permutations. A histogram of the steps the slots
 * hold, made at each call and kept as slots drop, gives that bound.
 *
 * <p>Cost: a pass over the k slots per call (the histogram), then per item one or two steps in a
 * row that holds many items (about k log k steps in all to fill an empty row). Scratch: three int
 * arrays of k (+1) entries per concurrent caller, lent by the sketch.
 */
final class SuperMinHashRow {

    /** Bits of a slot below its step. */
    static final int FRACTION_BITS = 48;

    private static final ValueLayout.OfLong SLOT = ValueLayout.JAVA_LONG.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final int slots;
    private final ScratchPool<Scratch> scratch;

    /** The permutation drawn so far, lazily the identity, the histogram of steps, one item's hash. */
    private static final class Scratch {
        final int[] permutation;
        /** Which item wrote {@code permutation[i]}: any other item sees i there. */
        final int[] writtenBy;
        /** Slots holding each step; entry k counts the empty slots. */
        final int[] histogram;

        final long[] one = new long[1];
        int item;

        Scratch(int slots) {
            permutation = new int[slots];
            writtenBy = new int[slots];
            histogram = new int[slots + 1];
        }
    }

    SuperMinHashRow(int slots) {
        this.slots = slots;
        this.scratch = new ScratchPool<>(() -> new Scratch(slots));
    }

    /** Lowers the signature at {@code offset} by one item. */
    void update(MemorySegment signature, long offset, long hash) {
        Scratch pieces = scratch.borrow();
        pieces.one[0] = hash;
        update(signature, offset, pieces.one, 0, 1, pieces);
        scratch.giveBack(pieces);
    }

    /** Lowers the signature at {@code offset} by the items of {@code hashes[from, from + count)}. */
    void update(MemorySegment signature, long offset, long[] hashes, int from, int count) {
        Scratch pieces = scratch.borrow();
        update(signature, offset, hashes, from, count, pieces);
        scratch.giveBack(pieces);
    }

    private void update(MemorySegment signature, long offset, long[] hashes, int from, int count, Scratch pieces) {
        int[] histogram = pieces.histogram;
        Arrays.fill(histogram, 0);
        for (int s = 0; s < slots; s++) {
            histogram[step(signature.get(SLOT, offset + (long) s * Long.BYTES))]++;
        }
        int top = slots;
        while (histogram[top] == 0) {
            top--;
        }
        int[] permutation = pieces.permutation;
        int[] writtenBy = pieces.writtenBy;
        int item = pieces.item;
        for (int e = from; e < from + count; e++) {
            long hash = hashes[e];
            int first = (int) Math.unsignedMultiplyHigh(MinHashKernels.derive(hash, 1), slots);
            top = offer(signature, offset, first, 0, hash, histogram, top);
            if (top == 0) {
                continue;
            }
            if (item == Integer.MAX_VALUE) {
                Arrays.fill(writtenBy, 0);
                item = 0;
            }
            item++;
            permutation[first] = 0;
            writtenBy[first] = item;
            for (int j = 1; j <= Math.min(top, slots - 1); j++) {
                int swap = j + (int) Math.unsignedMultiplyHigh(MinHashKernels.derive(hash, 2 * j + 1), slots - j);
                int atJ = writtenBy[j] == item ? permutation[j] : j;
                int slot = writtenBy[swap] == item ? permutation[swap] : swap;
                permutation[swap] = atJ;
                writtenBy[swap] = item;
                top = offer(signature, offset, slot, j, hash, histogram, top);
            }
        }
        pieces.item = item;
    }

    /**
     * Offers a slot the value of step j of an item, drawing the value only if the slot holds step j
     * or a later one; keeps the histogram and returns the largest step held.
     */
    private int offer(MemorySegment signature, long offset, int slot, int j, long hash, int[] histogram, int top) {
        long at = offset + (long) slot * Long.BYTES;
        long current = signature.get(SLOT, at);
        if (current >>> FRACTION_BITS < j) {
            return top;
        }
        long value = (long) j << FRACTION_BITS | MinHashKernels.derive(hash, 2 * j) >>> (64 - FRACTION_BITS);
        if (Long.compareUnsigned(value, current) >= 0) {
            return top;
        }
        signature.set(SLOT, at, value);
        int was = step(current);
        if (was == j) {
            return top;
        }
        histogram[j]++;
        if (--histogram[was] == 0 && was == top) {
            while (histogram[top] == 0) {
                top--;
            }
        }
        return top;
    }

    /** The step a slot holds, or k for an empty slot. */
    private int step(long slot) {
        return slot == MinHashSignature.EMPTY_SLOT ? slots : (int) (slot >>> FRACTION_BITS);
    }
}
