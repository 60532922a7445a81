package io.mapsketch.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Supplier;

/**
 * Scratch space for single-key calls, which a sketch keeps for the threads that call it: a small
 * table of places, each holding one piece for one owner thread. A thread that owns a place borrows
 * its piece with plain loads and stores, no locked instruction and no fence, so that a caller's loop
 * of single-key calls keeps its cache misses in flight. A thread takes a place with one
 * compare-and-set, at its first call, if a place near its home (chosen by thread id) is free: never
 * taken, or owned by a thread that has ended, whose piece it then inherits. A thread without a place,
 * and a call made from inside another call of the same thread, borrow from a {@link ScratchPool}.
 *
 * <p>So no two calls ever share a piece, a service of many (virtual) threads keeps at most
 * {@value #PLACES} pieces per sketch beside the pool's, and once the places are made nothing is
 * allocated. What a call leaves in a piece is the next borrower's to overwrite; a call that ends in
 * an exception need not give its piece back (its place then sends its owner to the pool).
 */
public final class OwnedScratch<T> {

    /** Places in the table: a power of two. */
    private static final int PLACES = 64;
    /** Places a thread looks at from its home before it falls back to the pool. */
    private static final int PROBES = 4;

    private static final VarHandle OWNER;

    static {
        try {
            OWNER = MethodHandles.lookup().findVarHandle(Lease.class, "owner", Thread.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Supplier<? extends T> factory;
    private final ScratchPool<Lease<T>> pool;
    private final AtomicReferenceArray<Lease<T>> places = new AtomicReferenceArray<>(PLACES);

    /**
     * Scratch whose pieces {@code factory} makes, for places and pool alike.
     *
     * @param factory makes a new piece
     */
    public OwnedScratch(Supplier<? extends T> factory) {
        this.factory = factory;
        this.pool = new ScratchPool<>(() -> new Lease<>(factory.get(), null));
    }

    /**
     * A piece lent to one call, and where it goes back: a place of the table, or the pool. A place's
     * owner changes only by compare-and-set, from a thread that has ended to the thread taking it; its
     * lent flag is read and written by the owner alone, and by the next owner after the one before has
     * ended. A lease of the pool has no owner.
     */
    public static final class Lease<T> {

        private final T piece;
        private final boolean pooled;
        private volatile Thread owner;
        private boolean lent;

        Lease(T piece, Thread owner) {
            this.piece = piece;
            this.pooled = owner == null;
            this.owner = owner;
        }

        /** The piece lent. */
        public T piece() {
            return piece;
        }

        Thread owner() {
            return (Thread) OWNER.getOpaque(this);
        }
    }

    /** Lends this thread's piece (its place's, or the pool's); give it back with {@link #giveBack}. */
    public Lease<T> borrow() {
        Thread thread = Thread.currentThread();
        Lease<T> place = owned(thread);
        if (place == null) {
            place = take(thread);
        }
        if (place == null || place.lent) {
            return pool.borrow();
        }
        place.lent = true;
        return place;
    }

    /** Takes back a lease of this thread's. */
    public void giveBack(Lease<T> lease) {
        if (lease.pooled) {
            pool.giveBack(lease);
        } else {
            lease.lent = false;
        }
    }

    /** This thread's place, or {@code null}. */
    private Lease<T> owned(Thread thread) {
        int home = home(thread);
        for (int probe = 0; probe < PROBES; probe++) {
            Lease<T> place = places.getPlain((home + probe) & (PLACES - 1));
            if (place != null && place.owner() == thread) {
                return place;
            }
        }
        return null;
    }

    /** Takes a free place near this thread's home, or returns {@code null} if none is. */
    private Lease<T> take(Thread thread) {
        int home = home(thread);
        for (int probe = 0; probe < PROBES; probe++) {
            int at = (home + probe) & (PLACES - 1);
            Lease<T> place = places.get(at);
            if (place == null) {
                Lease<T> made = new Lease<>(factory.get(), thread);
                if (places.compareAndSet(at, null, made)) {
                    return made;
                }
                place = places.get(at);
            }
            Thread owner = place.owner();
            // An ended owner's last call happens-before isAlive() returns false: its piece is free.
            if (!owner.isAlive() && OWNER.compareAndSet(place, owner, thread)) {
                place.lent = false;
                return place;
            }
        }
        return null;
    }

    private static int home(Thread thread) {
        return (int) thread.threadId() & (PLACES - 1);
    }
}
