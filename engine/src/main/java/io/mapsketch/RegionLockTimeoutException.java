package io.mapsketch;

import java.time.Duration;

/**
 * A lock in a sketch's mapped region (a cuckoo filter's kick chain, a Top-K candidate table) stayed
 * held by a live process for longer than the waiter's 10 seconds: the holder is stopped or stuck.
 * Nothing was changed by the operation that waited, beyond what its family documents (a Top-K add
 * has counted its key).
 */
public final class RegionLockTimeoutException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param holder who holds the lock
     * @param timeout how long the waiter waited
     */
    public RegionLockTimeoutException(String holder, Duration timeout) {
        super("a lock in the sketch's mapped region is still held by " + holder + " after " + timeout
                + "; the holder is alive but not releasing it (stopped or stuck)");
    }
}
