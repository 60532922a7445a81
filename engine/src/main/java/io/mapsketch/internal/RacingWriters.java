package io.mapsketch.internal;

import io.mapsketch.TableFullException;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The wait of a table writer refused for room that another writer holds only for a moment: a place or a
 * piece taken by a writer racing it for the same key, which that writer either publishes for the key or
 * gives back. The refused writer retries for up to {@value #WAIT_NANOS} ns, yielding between tries, before
 * it believes the table full.
 */
public final class RacingWriters {

    /** How long a writer refused for room waits for a writer racing it for the same key. */
    public static final long WAIT_NANOS = 20_000_000;

    private RacingWriters() {}

    /**
     * Retries {@code attempt} until it answers a value >= 0 or the wait is over.
     *
     * @param attempt the retry: a value >= 0 once the racing writer published or gave back, else -1
     * @param refusal the refusal thrown once the wait is over
     * @return the attempt's first answer >= 0
     * @throws TableFullException {@code refusal}'s, if no attempt succeeds in {@value #WAIT_NANOS} ns
     */
    public static long await(LongSupplier attempt, Supplier<TableFullException> refusal) {
        long deadline = System.nanoTime() + WAIT_NANOS;
        while (true) {
            long answer = attempt.getAsLong();
            if (answer >= 0) {
                return answer;
            }
            if (System.nanoTime() - deadline > 0) {
                throw refusal.get();
            }
            Thread.yield();
        }
    }
}
