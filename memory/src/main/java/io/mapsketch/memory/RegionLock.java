package io.mapsketch.memory;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;

/**
 * A mutual-exclusion lock kept in one aligned 64-bit word of a mapped region, so that it excludes
 * the threads of every process that maps the file. It guards the few structures that cannot be
 * updated lock-free (a Top-K candidate table, a cuckoo filter's kick chain); the sketches' counters
 * and bits never take it.
 *
 * <p>The word is 0 when free; a holder stores its process token: the pid in the high 32 bits and
 * the low 32 bits of the process start time in epoch milliseconds in the low 32, so that a pid
 * reused by a new process is not taken for the dead holder. A waiter that finds the word held by a
 * process that no longer exists (or whose pid now belongs to a process started at another time)
 * takes the lock over with a compare-and-set, and {@link #lock()} returns {@code true}: the
 * structure the lock guards may be half-updated and the caller must repair it before relying on
 * it. Threads of one JVM share its token; the compare-and-set from 0 still lets only one of them
 * in at a time.
 *
 * <p>Liveness is judged by process id, so every process sharing the file must see the same pid
 * namespace (one host, or one container). A process that is alive but stopped while holding the
 * lock keeps it: waiters give up after the timeout with a {@link LockTimeoutFault}.
 *
 * <p>Memory ordering: acquiring is a volatile compare-and-set and releasing a release store, so
 * everything the previous holder wrote before {@link #unlock()} is visible to the next holder.
 *
 * <p>Cost: an uncontended lock and unlock are one compare-and-set and one store (a few tens of
 * nanoseconds); a waiter spins briefly, then parks in steps of at most a millisecond and checks
 * the holder's liveness (a read of the process table, tens of microseconds) at each step.
 */
public final class RegionLock {

    /** How long {@link #lock()} waits for a live holder before giving up. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

    private static final long TOKEN = processToken(ProcessHandle.current());
    private static final int SPINS = 100;
    private static final long MAX_PARK_NANOS = 1_000_000;

    private final AtomicSegment words;
    private final long offset;
    private final long timeoutNanos;

    /**
     * Uses the word at {@code offset} of {@code words} as a lock with the default timeout.
     *
     * @param words the mapped region (or a slice of it)
     * @param offset byte offset of the lock word, a multiple of 8
     * @throws IllegalArgumentException if the offset is not 8-byte aligned
     * @throws IndexOutOfBoundsException if the word is outside the segment
     */
    public RegionLock(AtomicSegment words, long offset) {
        this(words, offset, DEFAULT_TIMEOUT);
    }

    /**
     * Uses the word at {@code offset} of {@code words} as a lock.
     *
     * @param words the mapped region (or a slice of it)
     * @param offset byte offset of the lock word, a multiple of 8
     * @param timeout how long {@link #lock()} waits for a live holder, positive
     * @throws IllegalArgumentException if the offset is not 8-byte aligned or the timeout not positive
     * @throws IndexOutOfBoundsException if the word is outside the segment
     */
    public RegionLock(AtomicSegment words, long offset, Duration timeout) {
        this.words = Objects.requireNonNull(words, "words");
        if ((offset & 7) != 0) {
            throw new IllegalArgumentException("offset = " + offset + ", must be a multiple of 8");
        }
        Objects.checkFromIndexSize(offset, Long.BYTES, words.byteSize());
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout = " + timeout + ", must be positive");
        }
        this.offset = offset;
        this.timeoutNanos = timeout.toNanos();
    }

    /**
     * Acquires the lock, waiting while a live process holds it.
     *
     * @return {@code true} if the lock was taken over from a holder that died holding it, so the
     *     guarded structure may be half-updated and must be repaired; {@code false} otherwise
     * @throws LockTimeoutFault if a live holder kept it for longer than the timeout
     * @throws IllegalStateException if the region was closed
     */
    public boolean lock() {
        long deadline = System.nanoTime() + timeoutNanos;
        for (int attempt = 0; ; attempt++) {
            long holder = words.getLongAcquire(offset);
            if (holder == 0) {
                if (words.compareAndSetLong(offset, 0, TOKEN)) {
                    return false;
                }
                continue;
            }
            if (attempt < SPINS) {
                Thread.onSpinWait();
                continue;
            }
            if (holder != TOKEN && !isAlive(holder)) {
                if (words.compareAndSetLong(offset, holder, TOKEN)) {
                    return true;
                }
                continue;
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new LockTimeoutFault(describe(holder), Duration.ofNanos(timeoutNanos));
            }
            LockSupport.parkNanos(Math.min(left, Math.min(MAX_PARK_NANOS, 1_000L << Math.min(attempt - SPINS, 10))));
        }
    }

    /** Releases the lock; the caller must hold it. Cost: one release store. */
    public void unlock() {
        words.putLongRelease(offset, 0);
    }

    /**
     * Tells whether some process holds the lock now (a snapshot, for diagnostics and tests).
     *
     * @return the holder's process id, or empty when the lock is free
     */
    public Optional<Long> holderPid() {
        long holder = words.getLongAcquire(offset);
        return holder == 0 ? Optional.empty() : Optional.of(holder >>> 32);
    }

    /**
     * Returns the token this process stores in a lock word it holds: its pid in the high 32 bits,
     * the low 32 bits of its start time in epoch milliseconds in the low 32 (0 where the platform
     * does not report start times).
     *
     * @return this process's token, never 0
     */
    public static long currentProcessToken() {
        return TOKEN;
    }

    private static long processToken(ProcessHandle process) {
        long started = process.info().startInstant().map(Instant::toEpochMilli).orElse(0L);
        return process.pid() << 32 | (started & 0xFFFF_FFFFL);
    }

    /** A holder is alive while its pid exists and, where start times are known, started when the token says. */
    static boolean isAlive(long token) {
        Optional<ProcessHandle> process = ProcessHandle.of(token >>> 32);
        if (process.isEmpty() || !process.get().isAlive()) {
            return false;
        }
        long started = token & 0xFFFF_FFFFL;
        return started == 0 || (processToken(process.get()) & 0xFFFF_FFFFL) == started;
    }

    private static String describe(long token) {
        return "process " + (token >>> 32);
    }
}
