package io.mapsketch.membership;

import io.mapsketch.internal.DoubleHashing;
import io.mapsketch.internal.KeyHasher;
import io.mapsketch.internal.ScratchPool;
import io.mapsketch.memory.AtomicSegment;

/**
 * The batch add and lookup of a classic {@link BloomFilter} of mapsketch's probes ({@link ProbeCells}),
 * round by round: probe i of every key of the batch, then probe i + 1. Each round makes three passes:
 * one computes the bit positions, one only loads their words, one acts on what was loaded. Out of cache
 * the loading pass holds one L1 load per miss, so the misses of many keys are in flight at once (why:
 * {@code docs/design/membership.md}, "classic batches with a pass that only loads").
 *
 * <p>The answers and the bits are those of the filter's single-key add and lookup, key by key: the
 * probes are the same, and OR does not depend on order. A lookup still stops a key at its first clear
 * bit, and no branch depends on the answers, which are as random as the keys.
 *
 * <p>Cost: per key and round one position, one load and, for an add with a bit missing in the round,
 * one {@link MembershipFilter#setBits}; scratch lent by this object ({@link ScratchPool}).
 */
final class BloomBatches {

    /** The filter whose bits these are, for its writes ({@link MembershipFilter#setBits}). */
    private final BloomFilter filter;

    private final AtomicSegment payload;
    private final long bits;
    private final int hashes;
    private final ProbeCells probes;
    private final ScratchPool<Scratch> scratchPool = new ScratchPool<>(Scratch::new);

    BloomBatches(BloomFilter filter, AtomicSegment payload, long bits, int hashes, ProbeCells probes) {
        this.filter = filter;
        this.payload = payload;
        this.bits = bits;
        this.hashes = hashes;
        this.probes = probes;
    }

    /**
     * Adds {@code keyHashes[from, from + count)}: per round, the positions, a pass that loads their words
     * and notes whether any bit is missing, and, unless none is, a pass that sets the bits in the words
     * now cached.
     */
    void add(long[] keyHashes, int from, int count) {
        Scratch scratch = scratchPool.borrow();
        long[] steps = scratch.steps();
        long[] positions = scratch.positions();
        for (int j = 0; j < count; j++) {
            steps[j] = DoubleHashing.step(keyHashes[from + j]);
        }
        for (int probe = 0; probe < hashes; probe++) {
            for (int j = 0; j < count; j++) {
                positions[j] = DoubleHashing.reduce(probes.value(keyHashes[from + j], steps[j], probe), bits);
            }
            long missing = 0;
            for (int j = 0; j < count; j++) {
                long bit = positions[j];
                missing |= ~payload.getLong((bit >>> 6) << 3) & 1L << bit;
            }
            if (missing != 0) {
                for (int j = 0; j < count; j++) {
                    long bit = positions[j];
                    filter.setBits((bit >>> 6) << 3, 1L << bit);
                }
            }
        }
        scratchPool.giveBack(scratch);
    }

    /**
     * Looks up {@code keyHashes[0, count)} into {@code results[resultsFrom, resultsFrom + count)}, probing
     * per round only the keys whose earlier probes all found their bit: the positions, a pass that loads
     * the words and keeps each key's bit, and a pass that keeps the keys whose bit was set.
     */
    void contains(long[] keyHashes, int count, boolean[] results, int resultsFrom) {
        Scratch scratch = scratchPool.borrow();
        int[] alive = scratch.alive();
        long[] steps = scratch.steps();
        long[] positions = scratch.positions();
        byte[] found = scratch.found();
        for (int j = 0; j < count; j++) {
            alive[j] = j;
            steps[j] = DoubleHashing.step(keyHashes[j]);
            results[resultsFrom + j] = false;
        }
        int remaining = count;
        for (int probe = 0; probe < hashes && remaining > 0; probe++) {
            for (int a = 0; a < remaining; a++) {
                int j = alive[a];
                positions[a] = DoubleHashing.reduce(probes.value(keyHashes[j], steps[j], probe), bits);
            }
            for (int a = 0; a < remaining; a++) {
                long bit = positions[a];
                found[a] = (byte) ((payload.getLong((bit >>> 6) << 3) >>> bit) & 1);
            }
            int kept = 0;
            for (int a = 0; a < remaining; a++) {
                alive[kept] = alive[a];
                kept += found[a];
            }
            remaining = kept;
        }
        for (int a = 0; a < remaining; a++) {
            results[resultsFrom + alive[a]] = true;
        }
        scratchPool.giveBack(scratch);
    }

    /** A batch call's scratch: the keys still possible, each key's probe step, a round's positions and found bits. */
    private record Scratch(int[] alive, long[] steps, long[] positions, byte[] found) {

        Scratch() {
            this(
                    new int[KeyHasher.BATCH],
                    new long[KeyHasher.BATCH],
                    new long[KeyHasher.BATCH],
                    new byte[KeyHasher.BATCH]);
        }
    }
}
