package io.mapsketch.frequency;

import io.mapsketch.internal.OwnedScratch;

/**
 * How an add raises a key's d counters in a Count-Min matrix, by the sketch's update rule and open mode:
 *
 * <ul>
 *   <li>plain: adds the count to each counter, saturating (a compare-and-set per counter when {@code
 *       SHARED}, so concurrent adds compose exactly);
 *   <li>conservative, {@code EXCLUSIVE}: raises to {@code estimate + count} only the counters below it,
 *       with plain loads and stores;
 *   <li>conservative, {@code SHARED}: the same raise, optimistic: it reads the d counters, raises each
 *       with a compare-and-set from the value read (or confirms it unchanged), and starts again from fresh
 *       reads if any changed in between, so no concurrent update of the same key is lost (why the
 *       restart is needed: {@code docs/design/frequency.md}, "the shared sketch in four classes").
 * </ul>
 *
 * <p>Counters only grow and never wrap. Callers have checked writability and the count, and account
 * for N and the items counter themselves. Cost: one 64-bit mix per row and d counter updates; a
 * conservative add first reads the d counters.
 */
final class CountMinUpdates {

    private final CounterMatrix counters;
    private final CountMinRows rows;
    private final CountMinEstimates estimates;
    private final int depth;
    private final boolean conservative;
    private final boolean shared;
    /** Each row's counter offset and value as a {@code SHARED} conservative update read them. */
    private final OwnedScratch<long[]> snapshots;

    CountMinUpdates(
            CounterMatrix counters,
            CountMinRows rows,
            CountMinEstimates estimates,
            CountMinFormat shape,
            boolean shared) {
        this.counters = counters;
        this.rows = rows;
        this.estimates = estimates;
        this.depth = shape.depth();
        this.conservative = shape.conservative();
        this.shared = shared;
        this.snapshots = new OwnedScratch<>(() -> new long[2 * depth]);
    }

    /** Adds {@code count}, in [1, 2^63 - 1], to the key of this hash; returns its estimate afterwards (capped). */
    long add(long hash, long count) {
        if (conservative) {
            return shared ? conservativeShared(hash, count) : conservativeExclusive(hash, count);
        }
        return estimates.cap(addPlain(counters, rows, depth, 0, hash, count));
    }

    /**
     * The plain add of {@code count}, in [1, 2^63 - 1], to the key of this hash in the {@code depth} rows of
     * the sketch at byte {@code base} of the matrix's segment (0, or a table key's): each of its counters
     * grows by the count, saturating. Returns the minimum of the counters afterwards, unsigned, not capped.
     * The loop of {@value CountMinRows#UNROLLED_DEPTH} rows with a constant trip count.
     */
    static long addPlain(CounterMatrix counters, CountMinRows rows, int depth, long base, long hash, long count) {
        return depth == CountMinRows.UNROLLED_DEPTH
                ? addRows(counters, rows, CountMinRows.UNROLLED_DEPTH, base, hash, count)
                : addRows(counters, rows, depth, base, hash, count);
    }

    private static long addRows(
            CounterMatrix counters, CountMinRows rows, int depth, long base, long hash, long count) {
        long x = rows.first(hash);
        long y = rows.step(hash);
        long min = -1L;
        for (int row = 0; row < depth; row++) {
            long updated = counters.add(base + counters.offset(row, rows.value(x)), count);
            min = CounterMatrix.unsignedMin(min, updated);
            x += y;
            y += rows.bump(row);
        }
        return min;
    }

    private long conservativeExclusive(long hash, long count) {
        long target = counters.saturatingAdd(estimates.raw(hash), count);
        long x = rows.first(hash);
        long y = rows.step(hash);
        for (int row = 0; row < depth; row++) {
            long offset = counters.offset(row, rows.value(x));
            if (Long.compareUnsigned(counters.load(offset), target) < 0) {
                counters.store(offset, target);
            }
            x += y;
            y += rows.bump(row);
        }
        return estimates.cap(target);
    }

    /**
     * Optimistic conservative update: snapshot the d counters, then raise each from the value read
     * (or confirm it unchanged); any change in between restarts from fresh reads.
     */
    private long conservativeShared(long hash, long count) {
        OwnedScratch.Lease<long[]> snapshot = snapshots.borrow();
        long[] scratch = snapshot.piece();
        long first = rows.first(hash);
        long step = rows.step(hash);
        retry:
        while (true) {
            long x = first;
            long y = step;
            long min = -1L;
            for (int row = 0; row < depth; row++) {
                long offset = counters.offset(row, rows.value(x));
                long value = counters.load(offset);
                scratch[2 * row] = offset;
                scratch[2 * row + 1] = value;
                min = CounterMatrix.unsignedMin(min, value);
                x += y;
                y += rows.bump(row);
            }
            long target = counters.saturatingAdd(min, count);
            for (int row = 0; row < depth; row++) {
                long offset = scratch[2 * row];
                long seen = scratch[2 * row + 1];
                boolean unchanged = Long.compareUnsigned(seen, target) < 0
                        ? counters.compareAndSet(offset, seen, target)
                        : counters.load(offset) == seen;
                if (!unchanged) {
                    continue retry;
                }
            }
            snapshots.giveBack(snapshot);
            return estimates.cap(target);
        }
    }
}
