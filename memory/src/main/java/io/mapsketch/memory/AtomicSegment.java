package io.mapsketch.memory;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Objects;

/**
 * Word access to a memory segment with the memory ordering named in each method, in the manner
 * of Agrona's {@code AtomicBuffer}: plain {@code get}/{@code put}, {@code Acquire} loads that pair
 * with {@code Release} stores, and atomic read-modify-write operations ({@code getAndAdd},
 * {@code getAndOr}, {@code compareAndSet}) that are full fences.
 *
 * <p>On a segment mapped from a file, the atomic operations are hardware atomics on the shared
 * page, so they compose exactly across threads <em>and</em> across processes that map the same
 * file: two processes that each add one a million times to the same word leave two million.
 *
 * <p>Offsets are in bytes from the start of the segment. A 64-bit access needs an offset that is a
 * multiple of 8, a 32-bit one a multiple of 4; a misaligned offset is refused with
 * {@link IllegalArgumentException} before memory is touched. An offset past the end throws
 * {@link IndexOutOfBoundsException}; a write to a read-only segment throws
 * {@link IllegalArgumentException}; any access after the owning region closed throws
 * {@link IllegalStateException}. Values are little-endian, the file format's order.
 *
 * <p>Cost: plain and acquire/release accesses are single loads and stores; an uncontended atomic
 * is a locked instruction (a few nanoseconds on x86), a contended one a cache-line transfer.
 */
public final class AtomicSegment {

    private static final VarHandle LONG =
            ValueLayout.JAVA_LONG.withOrder(ByteOrder.LITTLE_ENDIAN).varHandle();
    private static final VarHandle INT =
            ValueLayout.JAVA_INT.withOrder(ByteOrder.LITTLE_ENDIAN).varHandle();

    private final MemorySegment segment;

    /**
     * Wraps a segment whose start is 8-byte aligned.
     *
     * @param segment a native or mapped segment, or a heap segment over a {@code long[]}
     * @throws IllegalArgumentException if the segment's start is not 8-byte aligned (for example a
     *     heap segment over a {@code byte[]}), so 64-bit atomics could not work on it
     */
    public AtomicSegment(MemorySegment segment) {
        Objects.requireNonNull(segment, "segment");
        if (segment.maxByteAlignment() < Long.BYTES) {
            throw new IllegalArgumentException("segment alignment = " + segment.maxByteAlignment()
                    + " bytes, must be at least 8 for atomic word access (use a native, mapped or long[] segment)");
        }
        this.segment = segment;
    }

    /**
     * Returns the wrapped segment, for bulk kernels that need no atomics.
     *
     * @return the segment itself, not a copy
     */
    public MemorySegment segment() {
        return segment;
    }

    /**
     * Returns the segment's size.
     *
     * @return its length in bytes
     */
    public long byteSize() {
        return segment.byteSize();
    }

    /**
     * Plain 64-bit load: no ordering with other memory accesses.
     *
     * @param offset byte offset, a multiple of 8
     * @return the value
     */
    public long getLong(long offset) {
        checkAligned(offset, Long.BYTES);
        return (long) LONG.get(segment, offset);
    }

    /**
     * Plain 64-bit store: no ordering with other memory accesses.
     *
     * @param offset byte offset, a multiple of 8
     * @param value the value to store
     */
    public void putLong(long offset, long value) {
        checkAligned(offset, Long.BYTES);
        LONG.set(segment, offset, value);
    }

    /**
     * 64-bit load with acquire semantics: later accesses are not moved before it, and it sees
     * everything written before a {@link #putLongRelease} of the value it reads.
     *
     * @param offset byte offset, a multiple of 8
     * @return the value
     */
    public long getLongAcquire(long offset) {
        checkAligned(offset, Long.BYTES);
        return (long) LONG.getAcquire(segment, offset);
    }

    /**
     * 64-bit store with release semantics: earlier accesses are visible to a reader whose
     * {@link #getLongAcquire} sees this value.
     *
     * @param offset byte offset, a multiple of 8
     * @param value the value to publish
     */
    public void putLongRelease(long offset, long value) {
        checkAligned(offset, Long.BYTES);
        LONG.setRelease(segment, offset, value);
    }

    /**
     * Plain 64-bit store that every later store follows: a store-store fence after it, so no store
     * after this call becomes visible before it. The write that opens an update of a sequence lock
     * (mark the data as changing, then change it); it pairs with {@link #getLongAfterLoads} on the
     * reader's side. On x86 the fence costs nothing at run time; it only keeps the compiler from
     * moving later stores above the store.
     *
     * @param offset byte offset, a multiple of 8
     * @param value the value to store
     */
    public void putLongBeforeStores(long offset, long value) {
        checkAligned(offset, Long.BYTES);
        LONG.set(segment, offset, value);
        VarHandle.storeStoreFence();
    }

    /**
     * 64-bit load that every earlier load precedes: an acquire fence before it, so no load before this
     * call is satisfied after it. The read that closes a read of a sequence lock (read the version,
     * read the data, read the version again with this method and use the data only if the two reads
     * agree); it pairs with {@link #putLongBeforeStores} and with atomic read-modify-writes on the
     * writer's side. On x86 the fence costs nothing at run time.
     *
     * @param offset byte offset, a multiple of 8
     * @return the value
     */
    public long getLongAfterLoads(long offset) {
        checkAligned(offset, Long.BYTES);
        VarHandle.acquireFence();
        return (long) LONG.get(segment, offset);
    }

    /**
     * Atomically adds to a 64-bit word (wrapping on overflow; callers that must saturate use
     * {@link #compareAndSetLong}).
     *
     * @param offset byte offset, a multiple of 8
     * @param delta the amount to add
     * @return the value before the addition
     */
    public long getAndAddLong(long offset, long delta) {
        checkAligned(offset, Long.BYTES);
        return (long) LONG.getAndAdd(segment, offset, delta);
    }

    /**
     * Atomically ORs bits into a 64-bit word.
     *
     * @param offset byte offset, a multiple of 8
     * @param bits the bits to set
     * @return the value before the OR
     */
    public long getAndOrLong(long offset, long bits) {
        checkAligned(offset, Long.BYTES);
        return (long) LONG.getAndBitwiseOr(segment, offset, bits);
    }

    /**
     * Atomically replaces a 64-bit word if it still holds the expected value.
     *
     * @param offset byte offset, a multiple of 8
     * @param expected the value the word must hold
     * @param value the new value
     * @return {@code true} if the word held {@code expected} and now holds {@code value}
     */
    public boolean compareAndSetLong(long offset, long expected, long value) {
        checkAligned(offset, Long.BYTES);
        return LONG.compareAndSet(segment, offset, expected, value);
    }

    /**
     * Plain 32-bit load.
     *
     * @param offset byte offset, a multiple of 4
     * @return the value
     */
    public int getInt(long offset) {
        checkAligned(offset, Integer.BYTES);
        return (int) INT.get(segment, offset);
    }

    /**
     * Plain 32-bit store.
     *
     * @param offset byte offset, a multiple of 4
     * @param value the value to store
     */
    public void putInt(long offset, int value) {
        checkAligned(offset, Integer.BYTES);
        INT.set(segment, offset, value);
    }

    /**
     * 32-bit load with acquire semantics; pairs with {@link #putIntRelease}.
     *
     * @param offset byte offset, a multiple of 4
     * @return the value
     */
    public int getIntAcquire(long offset) {
        checkAligned(offset, Integer.BYTES);
        return (int) INT.getAcquire(segment, offset);
    }

    /**
     * 32-bit store with release semantics; pairs with {@link #getIntAcquire}.
     *
     * @param offset byte offset, a multiple of 4
     * @param value the value to publish
     */
    public void putIntRelease(long offset, int value) {
        checkAligned(offset, Integer.BYTES);
        INT.setRelease(segment, offset, value);
    }

    /**
     * Atomically adds to a 32-bit word (wrapping on overflow).
     *
     * @param offset byte offset, a multiple of 4
     * @param delta the amount to add
     * @return the value before the addition
     */
    public int getAndAddInt(long offset, int delta) {
        checkAligned(offset, Integer.BYTES);
        return (int) INT.getAndAdd(segment, offset, delta);
    }

    /**
     * Atomically ORs bits into a 32-bit word.
     *
     * @param offset byte offset, a multiple of 4
     * @param bits the bits to set
     * @return the value before the OR
     */
    public int getAndOrInt(long offset, int bits) {
        checkAligned(offset, Integer.BYTES);
        return (int) INT.getAndBitwiseOr(segment, offset, bits);
    }

    /**
     * Atomically clears bits of a 32-bit word.
     *
     * @param offset byte offset, a multiple of 4
     * @param bits the bits to clear
     * @return the value before the change
     */
    public int getAndClearInt(long offset, int bits) {
        checkAligned(offset, Integer.BYTES);
        return (int) INT.getAndBitwiseAnd(segment, offset, ~bits);
    }

    /**
     * Atomically replaces a 32-bit word if it still holds the expected value.
     *
     * @param offset byte offset, a multiple of 4
     * @param expected the value the word must hold
     * @param value the new value
     * @return {@code true} if the word held {@code expected} and now holds {@code value}
     */
    public boolean compareAndSetInt(long offset, int expected, int value) {
        checkAligned(offset, Integer.BYTES);
        return INT.compareAndSet(segment, offset, expected, value);
    }

    private static void checkAligned(long offset, int size) {
        if ((offset & (size - 1)) != 0) {
            throw new IllegalArgumentException("offset = " + offset + " is misaligned for a " + (size * 8)
                    + "-bit access: it must be a multiple of " + size);
        }
    }
}
