package io.mapsketch.memory;

/**
 * The range of the live line's two counters and the arithmetic that keeps them in it, so that
 * neither ever wraps: the items-added counter saturates at {@link #LIMIT} (and reads as
 * {@code Long.MAX_VALUE} from there on), a removal never takes it below zero, and an addition
 * to the total weight that would take it past {@link #LIMIT} is refused.
 *
 * <p>Shared writers add with one {@code getAndAdd} when the value they read leaves room for
 * their delta and the delta is at most {@link #FAST_DELTA}, and with a compare-and-set loop
 * otherwise; removals always compare and set. The {@code 2^55} between {@link #LIMIT} and
 * {@code 2^63 - 1} is room for the additions that read a value below the limit and land after
 * it was reached: one per thread, at most 2^22 threads on one Linux kernel, each at most
 * 2^32 (the proof is in {@code docs/design/live-counters.md}). Cost: one load of the counter's
 * cache line before the {@code getAndAdd}, which then finds the line in the cache.
 */
public final class LiveCounters {

    /**
     * The largest value a counter is taken to by an update that sees it: {@code 2^63 - 2^55 - 1}.
     * An items-added counter at or above it is saturated; additions to the total weight stop here.
     */
    public static final long LIMIT = Long.MAX_VALUE - (1L << 55);

    /** The largest delta a shared writer adds with a plain {@code getAndAdd}: 2^32. */
    static final long FAST_DELTA = 1L << 32;

    private LiveCounters() {}

    /**
     * The product of two values {@code >= 0}, or {@code Long.MAX_VALUE} if it passes it: a count or a total
     * taken {@code times} times over, which {@link #LIMIT} then refuses or saturates.
     *
     * @param value a count or a total, at least 0
     * @param times how many times it is taken, at least 0
     * @return {@code value * times}, or {@code Long.MAX_VALUE} if that passes it
     */
    public static long times(long value, long times) {
        return Math.multiplyHigh(value, times) != 0 || value * times < 0 ? Long.MAX_VALUE : value * times;
    }

    /** A stored items-added value as callers see it: {@code Long.MAX_VALUE} (saturated) from {@link #LIMIT} on. */
    static long itemsRead(long stored) {
        return stored >= LIMIT ? Long.MAX_VALUE : stored;
    }

    /**
     * The sole writer's items word after adding {@code delta} to it, or removing {@code -delta} if
     * negative: saturated at {@code limit} and sticky there, never below zero. {@code limit} is
     * {@link #LIMIT} minus the items in the file's counter slots (none in a file that removes), which
     * no other writer changes while the sole writer holds the file.
     */
    static long itemsPlus(long current, long delta, long limit) {
        if (delta >= 0) {
            return current >= limit - delta ? Math.max(current, limit) : current + delta;
        }
        return current >= limit ? current : Math.max(0, current + delta);
    }

    /** Whether the sole writer may add {@code delta} to a total weight of {@code current}. */
    static boolean weightRoom(long current, long delta) {
        return delta <= LIMIT - current;
    }

    /**
     * Adds {@code delta >= 0} to a shared items counter, saturating at {@link #LIMIT}.
     *
     * @return the counter after the addition, as stored
     */
    static long addItemsShared(AtomicSegment line, int offset, long delta) {
        long current = line.getLongAcquire(offset);
        if (delta <= FAST_DELTA && current <= LIMIT - delta) {
            return line.getAndAddLong(offset, delta) + delta;
        }
        while (current < LIMIT) {
            long next = delta >= LIMIT - current ? LIMIT : current + delta;
            if (line.compareAndSetLong(offset, current, next)) {
                return next;
            }
            current = line.getLongAcquire(offset);
        }
        return current;
    }

    /**
     * Removes {@code count >= 0} from a shared items counter, flooring at zero; a saturated counter
     * stays saturated.
     *
     * @return the counter after the removal, as stored
     */
    static long removeItemsShared(AtomicSegment line, int offset, long count) {
        long current = line.getLongAcquire(offset);
        while (current < LIMIT) {
            long next = Math.max(0, current - count);
            if (line.compareAndSetLong(offset, current, next)) {
                return next;
            }
            current = line.getLongAcquire(offset);
        }
        return current;
    }

    /**
     * Adds {@code delta >= 0} to a shared total weight unless, as read, it would pass {@link #LIMIT}.
     *
     * @return the weight after the addition, or -1 if it was refused and nothing changed
     */
    static long addWeightShared(AtomicSegment line, int offset, long delta) {
        long current = line.getLongAcquire(offset);
        if (delta <= FAST_DELTA && current <= LIMIT - delta) {
            return line.getAndAddLong(offset, delta) + delta;
        }
        while (delta <= LIMIT - current) {
            if (line.compareAndSetLong(offset, current, current + delta)) {
                return current + delta;
            }
            current = line.getLongAcquire(offset);
        }
        return -1;
    }
}
