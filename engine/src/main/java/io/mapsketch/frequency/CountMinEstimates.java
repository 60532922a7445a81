package io.mapsketch.frequency;

import io.mapsketch.internal.KeyHasher;
import io.mapsketch.internal.ScratchPool;

/**
 * A key's estimate in a Count-Min matrix: the unsigned minimum of its d counters ({@link CountMinRows}
 * picks them), capped at the largest estimate. Saturation is the one case in which an estimate may be
 * below the truth: an estimate at {@link #max()} is saturated.
 *
 * <p>Each counter is read once, with a plain load, so an estimate taken while writers add sees every
 * counter at some value it held during the call. A batch of estimates goes key by key, or, for a matrix
 * of more than {@value #ROWS_ABOVE_BYTES} bytes, row by row so that the loads of many keys are in flight
 * at once (why that size: {@code docs/design/frequency.md}, "batch estimates row by row").
 *
 * <p>Cost: one 64-bit mix per row and d counter loads per key; a row-by-row batch makes three passes
 * per row over scratch lent by this object.
 */
final class CountMinEstimates {

    /** Counter bytes above which batches of estimates are read row by row: a core's L2 cache, measured. */
    static final long ROWS_ABOVE_BYTES = 1 << 20;

    private static final long MAX_32 = 0xFFFF_FFFFL;

    private final CounterMatrix counters;
    private final CountMinRows rows;
    private final int depth;
    private final long max;
    private final boolean byRow;
    private final ScratchPool<RowScratch> rowScratch = new ScratchPool<>(RowScratch::new);

    CountMinEstimates(CounterMatrix counters, CountMinRows rows, CountMinFormat shape) {
        this.counters = counters;
        this.rows = rows;
        this.depth = shape.depth();
        this.max = maxEstimate(shape.counterBytes());
        this.byRow = shape.counterBytesTotal() > ROWS_ABOVE_BYTES;
    }

    /**
     * The largest estimate of counters of {@code counterBytes}: {@code 2^32 - 1} for 4, {@code 2^63 - 1} for
     * 8 (64-bit counters go on to {@code 2^64 - 1}, but an estimate is a {@code long}).
     */
    static long maxEstimate(int counterBytes) {
        return counterBytes == Integer.BYTES ? MAX_32 : Long.MAX_VALUE;
    }

    /** The largest estimate; an estimate at this value is saturated. */
    long max() {
        return max;
    }

    /** The estimate of the key of this hash: the minimum of its counters, capped at {@link #max()}. */
    long of(long hash) {
        return cap(raw(hash));
    }

    /** The minimum of the key's counters, unsigned and not capped. */
    long raw(long hash) {
        return raw(counters, rows, depth, 0, hash);
    }

    /**
     * The minimum of the counters of the key of this hash in {@code depth} rows of the sketch at byte
     * {@code base} of the matrix's segment (0, or a table key's), unsigned and not capped; static, so that a
     * sketch's single-key estimate reads the matrix and rows from its own fields, with no load of this object
     * before the row loop; the loop of {@value CountMinRows#UNROLLED_DEPTH} rows with a constant trip count.
     */
    static long raw(CounterMatrix counters, CountMinRows rows, int depth, long base, long hash) {
        return depth == CountMinRows.UNROLLED_DEPTH
                ? rawRows(counters, rows, CountMinRows.UNROLLED_DEPTH, base, hash)
                : rawRows(counters, rows, depth, base, hash);
    }

    private static long rawRows(CounterMatrix counters, CountMinRows rows, int depth, long base, long hash) {
        long x = rows.first(hash);
        long y = rows.step(hash);
        long min = -1L;
        for (int row = 0; row < depth; row++) {
            min = CounterMatrix.unsignedMin(min, counters.load(base + counters.offset(row, rows.value(x))));
            x += y;
            y += rows.bump(row);
        }
        return min;
    }

    /** An unsigned counter value as an estimate: itself, or {@link #max()} if it is at least that. */
    long cap(long unsignedValue) {
        return cap(unsignedValue, max);
    }

    /** An unsigned counter value as an estimate: itself, or {@code max} if it is at least that. */
    static long cap(long unsignedValue, long max) {
        return Long.compareUnsigned(unsignedValue, max) >= 0 ? max : unsignedValue;
    }

    /**
     * Estimates the keys of {@code hashes[0, n)} into {@code estimates[from, from + n)}, as {@link #of} would
     * one by one; {@code n} is at most {@value KeyHasher#BATCH}.
     */
    void of(long[] hashes, int n, long[] estimates, int from) {
        if (byRow) {
            byRow(hashes, n, estimates, from);
            return;
        }
        for (int i = 0; i < n; i++) {
            estimates[from + i] = of(hashes[i]);
        }
    }

    /**
     * Row by row: for each row, a pass computes the counters' offsets, a pass only loads the counters (so
     * out of cache the misses of many keys are in flight at once) and a pass folds them into the minima.
     */
    private void byRow(long[] hashes, int n, long[] estimates, int from) {
        RowScratch scratch = rowScratch.borrow();
        long[] x = scratch.x();
        long[] y = scratch.y();
        long[] values = scratch.values();
        for (int j = 0; j < n; j++) {
            x[j] = rows.first(hashes[j]);
            y[j] = rows.step(hashes[j]);
            estimates[from + j] = -1L;
        }
        for (int row = 0; row < depth; row++) {
            long bump = rows.bump(row);
            for (int j = 0; j < n; j++) {
                values[j] = counters.offset(row, rows.value(x[j]));
                x[j] += y[j];
                y[j] += bump;
            }
            for (int j = 0; j < n; j++) {
                values[j] = counters.load(values[j]);
            }
            for (int j = 0; j < n; j++) {
                estimates[from + j] = CounterMatrix.unsignedMin(estimates[from + j], values[j]);
            }
        }
        for (int j = 0; j < n; j++) {
            estimates[from + j] = cap(estimates[from + j]);
        }
        rowScratch.giveBack(scratch);
    }

    /**
     * A row-by-row batch's scratch (lent by the estimates, {@link ScratchPool}): each key's row state
     * ({@link CountMinRows}), and one row's offsets, which the loading pass replaces by the counters' values.
     */
    private record RowScratch(long[] x, long[] y, long[] values) {

        RowScratch() {
            this(new long[KeyHasher.BATCH], new long[KeyHasher.BATCH], new long[KeyHasher.BATCH]);
        }
    }
}
