package io.mapsketch.similarity;

import io.mapsketch.internal.ScratchPool;
import io.mapsketch.kernels.MinHashKernels;
import io.mapsketch.kernels.RegisterKernels;
import io.mapsketch.memory.AtomicSegment;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;

/**
 * The row mechanics of a MinHash table: rows of k little-endian 64-bit slots, each row starting on a
 * cache line, lowered by the row's derivation (the classic one by the SIMD kernels, SuperMinHash by
 * {@link SuperMinHashRow}) with plain stores ({@code EXCLUSIVE}), or in a copy that then lowers the
 * row slot by slot with compare-and-set ({@code SHARED}), compared by the equal-slot kernel. Offsets are byte offsets of a
 * row's slot 0 in the table; callers have checked them.
 */
final class MinHashRows {

    private static final ValueLayout.OfLong SLOT = ValueLayout.JAVA_LONG.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final AtomicSegment words;
    private final MemorySegment table;
    private final int slots;
    private final long stride;
    private final boolean atomic;
    /** The SuperMinHash update, or null for the classic derivation. */
    private final SuperMinHashRow superMinHash;
    /**
     * The hash of a single-key add, as the kernel takes it: the {@code EXCLUSIVE} writer's own, since it
     * adds from one thread at a time ({@code SHARED} writers lower slots one by one and need none).
     */
    private final long[] soleWriterHash = new long[1];
    /** A {@code SHARED} batch add's signature of k slots, native and 64-byte aligned. */
    private final ScratchPool<MemorySegment> signatures;

    MinHashRows(AtomicSegment words, int slots, boolean atomic, MinHashDerivation derivation) {
        this.words = words;
        this.table = words.segment();
        this.slots = slots;
        this.stride = stride(slots);
        this.atomic = atomic;
        this.superMinHash = derivation == MinHashDerivation.SUPER_MINHASH ? new SuperMinHashRow(slots) : null;
        this.signatures = new ScratchPool<>(() -> Arena.ofAuto().allocate((long) slots * Long.BYTES, 64));
    }

    /** Bytes from one row to the next: k slots rounded up to whole cache lines. */
    static long stride(int slots) {
        return Math.ceilDiv((long) slots * Long.BYTES, 64) * 64;
    }

    long offset(int row) {
        return row * stride;
    }

    /** Lowers the row's slots by one item's hash. */
    void add(long row, long hash) {
        if (superMinHash != null) {
            if (atomic) {
                superMinHash.updateShared(words, row, hash);
            } else {
                superMinHash.update(table, row, hash);
            }
            return;
        }
        if (atomic) {
            for (int s = 0; s < slots; s++) {
                lowerSlot(words, row + (long) s * Long.BYTES, MinHashKernels.derive(hash, s));
            }
            return;
        }
        soleWriterHash[0] = hash;
        MinHashKernels.update(table, row, slots, soleWriterHash, 0, 1);
    }

    /** Lowers the row's slots by the items of {@code hashes[0, count)}: in place, or in scratch and then by CAS. */
    void addAll(long row, long[] hashes, int count) {
        if (superMinHash != null) {
            if (atomic) {
                superMinHash.updateShared(words, row, hashes, 0, count);
            } else {
                superMinHash.update(table, row, hashes, 0, count);
            }
            return;
        }
        if (!atomic) {
            MinHashKernels.update(table, row, slots, hashes, 0, count);
            return;
        }
        MemorySegment scratch = signatures.borrow();
        scratch.fill((byte) -1);
        MinHashKernels.update(scratch, 0, slots, hashes, 0, count);
        lowerRow(row, scratch, 0);
        signatures.giveBack(scratch);
    }

    /** Lowers {@code count} consecutive rows from {@code dst} by the rows of {@code source} from {@code src}. */
    void merge(long dst, MemorySegment source, long src, long sourceStride, int count) {
        for (int r = 0; r < count; r++) {
            long d = dst + r * stride;
            long s = src + r * sourceStride;
            if (atomic) {
                lowerRow(d, source, s);
            } else {
                RegisterKernels.minUnsignedLongs(table, d, source, s, slots);
            }
        }
    }

    /** Merges a heap signature into a row. */
    void merge(long row, long[] signature) {
        try (Arena arena = Arena.ofConfined()) {
            merge(row, copy(arena, signature), 0, 0, 1);
        }
    }

    private void lowerRow(long row, MemorySegment source, long from) {
        for (int s = 0; s < slots; s++) {
            lowerSlot(words, row + (long) s * Long.BYTES, source.get(SLOT, from + (long) s * Long.BYTES));
        }
    }

    /** Compare-and-set of one slot to {@code value}, retried while the slot is still above it (unsigned). */
    static void lowerSlot(AtomicSegment words, long at, long value) {
        long current = words.getLong(at);
        while (Long.compareUnsigned(value, current) < 0) {
            if (words.compareAndSetLong(at, current, value)) {
                return;
            }
            current = words.getLongAcquire(at);
        }
    }

    long[] toArray(long row) {
        return table.asSlice(row, (long) slots * Long.BYTES).toArray(SLOT);
    }

    boolean isEmpty(long row) {
        for (int s = 0; s < slots; s++) {
            if (table.get(SLOT, row + (long) s * Long.BYTES) != MinHashSignature.EMPTY_SLOT) {
                return false;
            }
        }
        return true;
    }

    long countEqual(long rowA, long rowB) {
        return MinHashKernels.countEqual(table, rowA, table, rowB, slots);
    }

    long countEqual(long row, long[] signature) {
        return MinHashKernels.countEqual(table, row, MemorySegment.ofArray(signature), 0, slots);
    }

    /**
     * Ranks the first {@code rows} rows against a signature and returns the best {@code keep}, best
     * first, ties to the lower row: one pass of the equal-slot kernel and a heap of {@code keep} ranks
     * (equal slots above bit 31, the complement of the row below).
     */
    List<MinHash.Match> mostSimilar(long[] signature, int rows, int keep) {
        PriorityQueue<Long> best = new PriorityQueue<>(keep);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment query = copy(arena, signature);
            for (int row = 0; row < rows; row++) {
                long equal = MinHashKernels.countEqual(table, row * stride, query, 0, slots);
                long rank = (equal << 31) | (Integer.MAX_VALUE - row);
                if (best.size() < keep) {
                    best.add(rank);
                } else if (rank > best.peek()) {
                    best.poll();
                    best.add(rank);
                }
            }
        }
        List<MinHash.Match> matches = new ArrayList<>(keep);
        while (!best.isEmpty()) {
            long rank = best.poll();
            matches.add(new MinHash.Match(
                    Integer.MAX_VALUE - (int) (rank & Integer.MAX_VALUE), (double) (rank >>> 31) / slots));
        }
        return matches.reversed();
    }

    private MemorySegment copy(Arena arena, long[] signature) {
        MemorySegment copy = arena.allocate((long) slots * Long.BYTES, 64);
        MemorySegment.copy(signature, 0, copy, SLOT, 0, slots);
        return copy;
    }
}
