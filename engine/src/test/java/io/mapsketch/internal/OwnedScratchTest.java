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
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A thread keeps its piece from call to call, a call inside a call gets another, no two calls hold
 * one piece at once, and a thread that ends leaves its piece to the next thread at its place.
 */
class OwnedScratchTest {

    @Test
    void aThreadBorrowsItsOwnPieceAgainWithoutMakingAnother() {
        AtomicInteger made = new AtomicInteger();
        OwnedScratch<long[]> scratch = new OwnedScratch<>(() -> {
            made.incrementAndGet();
            return new long[8];
        });
        OwnedScratch.Lease<long[]> first = scratch.borrow();
        scratch.giveBack(first);
        for (int i = 0; i < 1_000; i++) {
            OwnedScratch.Lease<long[]> again = scratch.borrow();
            assertSame(first.piece(), again.piece());
            scratch.giveBack(again);
        }
        assertEquals(1, made.get());
    }

    @Test
    void aCallInsideAnotherOfTheSameThreadGetsAnotherPiece() {
        OwnedScratch<long[]> scratch = new OwnedScratch<>(() -> new long[8]);
        OwnedScratch.Lease<long[]> outer = scratch.borrow();
        OwnedScratch.Lease<long[]> inner = scratch.borrow();
        assertNotSame(outer.piece(), inner.piece());
        scratch.giveBack(inner);
        scratch.giveBack(outer);
        OwnedScratch.Lease<long[]> next = scratch.borrow();
        assertSame(outer.piece(), next.piece(), "the thread's own piece is lent again");
        scratch.giveBack(next);
    }

    /**
     * Each piece counts its borrowers: a piece lent to two calls at once would count two. More threads
     * than places, so that some threads find no place and borrow from the pool.
     */
    @Test
    void concurrentCallsNeverHoldTheSamePiece() throws Exception {
        OwnedScratch<AtomicInteger> scratch = new OwnedScratch<>(AtomicInteger::new);
        int threads = 96;
        try (ExecutorService executor = Executors.newFixedThreadPool(threads)) {
            List<Future<Integer>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                results.add(executor.submit(() -> {
                    int overlaps = 0;
                    for (int i = 0; i < 20_000; i++) {
                        OwnedScratch.Lease<AtomicInteger> piece = scratch.borrow();
                        overlaps += piece.piece().getAndIncrement();
                        OwnedScratch.Lease<AtomicInteger> nested = scratch.borrow();
                        overlaps += nested.piece().getAndIncrement();
                        Thread.onSpinWait();
                        nested.piece().decrementAndGet();
                        scratch.giveBack(nested);
                        piece.piece().decrementAndGet();
                        scratch.giveBack(piece);
                    }
                    return overlaps;
                }));
            }
            for (Future<Integer> overlaps : results) {
                assertEquals(0, overlaps.get());
            }
        }
    }

    /** Thread ids are handed out in order, so one of the next 64 threads made has the ended thread's home. */
    @Test
    void aThreadThatEndedLeavesItsPieceToTheNextThreadAtItsPlace() throws Exception {
        AtomicInteger made = new AtomicInteger();
        OwnedScratch<long[]> scratch = new OwnedScratch<>(() -> {
            made.incrementAndGet();
            return new long[8];
        });
        AtomicReference<long[]> first = new AtomicReference<>();
        Thread ended = Thread.ofPlatform().start(() -> {
            OwnedScratch.Lease<long[]> piece = scratch.borrow();
            first.set(piece.piece());
            scratch.giveBack(piece);
        });
        ended.join();
        AtomicReference<long[]> second = new AtomicReference<>();
        Runnable borrowOnce = () -> {
            OwnedScratch.Lease<long[]> piece = scratch.borrow();
            second.set(piece.piece());
            scratch.giveBack(piece);
        };
        Thread heir = Thread.ofPlatform().unstarted(borrowOnce);
        while ((heir.threadId() - ended.threadId()) % 64 != 0) {
            heir = Thread.ofPlatform().unstarted(borrowOnce);
        }
        heir.start();
        heir.join();
        assertSame(first.get(), second.get());
        assertEquals(1, made.get());
    }
}
