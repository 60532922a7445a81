package io.mapsketch.memory;

import java.time.Duration;

/**
 * A {@link RegionLock} stayed held by a live process for longer than the waiter's timeout: the
 * holder is stopped or stuck. Nothing was changed by the operation that waited. The engine reports
 * it as an exception type of its API.
 */
public final class LockTimeoutFault extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    /** Who holds the lock. */
    private final String holder;
    /** How long the waiter waited. */
    private final Duration timeout;

    LockTimeoutFault(String holder, Duration timeout) {
        super("a region lock is still held by " + holder + " after " + timeout);
        this.holder = holder;
        this.timeout = timeout;
    }

    /**
     * Returns who holds the lock.
     *
     * @return {@code process PID}
     */
    public String holder() {
        return holder;
    }

    /**
     * Returns how long the waiter waited.
     *
     * @return the waiter's timeout
     */
    public Duration timeout() {
        return timeout;
    }
}
