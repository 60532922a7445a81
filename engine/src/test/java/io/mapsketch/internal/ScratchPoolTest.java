package io.mapsketch.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A pool lends each piece to one call at a time, and a thread that gives its piece back gets it again. */
class ScratchPoolTest {

    @Test
    void aThreadThatGivesItsPieceBackBorrowsTheSamePieceWithoutMakingAnother() {
        AtomicInteger made = new AtomicInteger();
        ScratchPool<long[]> pool = new ScratchPool<>(() -> {
            made.incrementAndGet();
            return new long[8];
        });
        long[] first = pool.borrow();
        pool.giveBack(first);
        for (int i = 0; i < 1_000; i++) {
            long[] again = pool.borrow();
            assertSame(first, again);
            pool.giveBack(again);
        }
        assertEquals(1, made.get());
    }

    @Test
    void aCallInsideAnotherOfTheSameThreadGetsANewPiece() {
        ScratchPool<long[]> pool = new ScratchPool<>(() -> new long[8]);
        long[] outer = pool.borrow();
        long[] inner = pool.borrow();
        assertNotSame(outer, inner);
        pool.giveBack(inner);
        pool.giveBack(outer);
    }

    /**
     * Each piece counts its borrowers: a piece lent to two calls at once would count two. More threads
     * than stripes (at most 64), so that threads share stripes.
     */
    @Test
    void concurrentCallsNeverHoldTheSamePiece() throws Exception {
        ScratchPool<AtomicInteger> pool = new ScratchPool<>(AtomicInteger::new);
        int threads = 72;
        try (ExecutorService executor = Executors.newFixedThreadPool(threads)) {
            List<Future<Integer>> shared = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                shared.add(executor.submit(() -> {
                    int overlaps = 0;
                    for (int i = 0; i < 20_000; i++) {
                        AtomicInteger piece = pool.borrow();
                        overlaps += piece.getAndIncrement();
                        Thread.onSpinWait();
                        piece.decrementAndGet();
                        pool.giveBack(piece);
                    }
                    return overlaps;
                }));
            }
            for (Future<Integer> overlaps : shared) {
                assertEquals(0, overlaps.get());
            }
        }
    }
}
