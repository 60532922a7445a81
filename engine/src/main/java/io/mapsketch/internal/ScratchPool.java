package io.mapsketch.internal;

import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Supplier;

/**
 * Scratch space that a sketch lends to one call at a time, in place of a thread-local: the space is
 * the sketch's, so a service of many (virtual) threads holds at most one piece per stripe and sketch,
 * however many threads it runs. For batch calls, whose atomic exchange is shared by hundreds of keys;
 * single-key calls use {@link OwnedScratch}, which needs none. A call borrows the piece of its thread's stripe (chosen by thread id)
 * and gives it back when done; a call that finds its stripe's piece lent out, to a concurrent call
 * of another thread of that stripe, is given a new piece, so no two calls ever share one.
 *
 * <p>Cost: an atomic exchange to borrow and a release store to give back, on a cache line of the
 * stripe's own (threads of different stripes do not contend); the stripes are made at the first
 * borrow. What a call leaves in a piece is the next borrower's to overwrite; a call that ends in an
 * exception need not give its piece back (the next borrow then makes a new one).
 */
public final class ScratchPool<T> {

    /** Stripes: a power of two, at least twice the processors (threads running at once rarely share one), at most 64. */
    private static final int STRIPES =
            Math.min(64, Integer.highestOneBit(Runtime.getRuntime().availableProcessors()) * 4);
    /** Slots between two stripes' pieces: 64 bytes of compressed references, so each stripe has a line of its own. */
    private static final int SPACING = 16;

    private final Supplier<? extends T> factory;
    private volatile AtomicReferenceArray<T> slots;

    /**
     * A pool that makes its pieces with {@code factory}.
     *
     * @param factory makes a new piece
     */
    public ScratchPool(Supplier<? extends T> factory) {
        this.factory = factory;
    }

    /** Lends this thread's stripe's piece, or a new one if it is lent out; give it back with {@link #giveBack}. */
    public T borrow() {
        T piece = slots().getAndSet(slot(), null);
        return piece != null ? piece : factory.get();
    }

    /** Takes back a piece borrowed by this thread (or one that replaces it, such as a larger buffer). */
    public void giveBack(T piece) {
        slots().setRelease(slot(), piece);
    }

    private AtomicReferenceArray<T> slots() {
        AtomicReferenceArray<T> current = slots;
        if (current == null) {
            // Two threads may both make the array; one is lost with at most a piece in it.
            current = new AtomicReferenceArray<>(STRIPES * SPACING);
            slots = current;
        }
        return current;
    }

    private static int slot() {
        return ((int) Thread.currentThread().threadId() & (STRIPES - 1)) * SPACING;
    }
}
