package io.mapsketch.kernels;

import static io.mapsketch.kernels.BlockedBloomLayout.blockOffset;
import static io.mapsketch.kernels.BlockedBloomLayout.wordPattern;
import static io.mapsketch.kernels.Layouts.LONG;

import java.lang.foreign.MemorySegment;

/**
 * Blocked Bloom filter batch kernels over the layout of {@link BlockedBloomLayout}. An
 * implementation supplies the two per-block steps; the batch loops here are shared. Arguments are
 * trusted (the facade {@link BlockedBloomKernels} checks them).
 *
 * <p>Every batch goes in chunks of {@value #CHUNK} keys and two phases. The first loads word 0 of
 * each key's block, a short independent step per key, so that the chunk's cache misses are all in
 * flight at once, and records in a 64-bit mask whether that word already holds the key's bits. The
 * second does the per-key work while the blocks are in cache; a key whose word 0 lacks a bit is
 * known to be absent without looking further. Without the first phase the per-key work is long
 * enough that the processor overlaps the misses of only a few keys.
 */
interface BloomOps {

    /** Keys per chunk: one bit of the first phase's mask each; their blocks (4 KiB) stay in L1. */
    int CHUNK = Long.SIZE;

    /** Whether the block at byte offset {@code block} holds all of the hash's bits. */
    boolean contains(MemorySegment filter, long block, long hash, int bitsPerKey);

    /** ORs the hash's bits into the block at byte offset {@code block} with plain loads and stores. */
    void setBits(MemorySegment filter, long block, long hash, int bitsPerKey);

    /**
     * Sets each hash's bits with plain stores, writing only blocks that miss a bit; returns how many
     * keys had a bit missing when their turn came (a key repeated in the batch counts once). The
     * first phase's answer that a key is missing holds only until the chunk's first write, which may
     * have set that key's bits.
     */
    default long add(MemorySegment filter, long offset, long blocks, int bitsPerKey, long[] hashes, int from,
            int count) {
        long added = 0;
        for (int start = 0; start < count; start += CHUNK) {
            int chunk = Math.min(CHUNK, count - start);
            long firstWordHolds = probeFirstWords(filter, offset, blocks, bitsPerKey, hashes, from + start, chunk);
            boolean wrote = false;
            for (int j = 0; j < chunk; j++) {
                long hash = hashes[from + start + j];
                long block = blockOffset(offset, hash, blocks);
                boolean surelyMissing = (firstWordHolds >>> j & 1) == 0 && !wrote;
                if (surelyMissing || !contains(filter, block, hash, bitsPerKey)) {
                    setBits(filter, block, hash, bitsPerKey);
                    wrote = true;
                    added++;
                }
            }
        }
        return added;
    }

    /**
     * Sets each hash's bits with atomic ORs, skipping keys whose bits are all set and, within a
     * block, words that hold their bits already; returns how many keys this call changed.
     */
    default long addAtomic(MemorySegment filter, long offset, long blocks, int bitsPerKey, long[] hashes, int from,
            int count) {
        long added = 0;
        for (int start = 0; start < count; start += CHUNK) {
            int chunk = Math.min(CHUNK, count - start);
            long firstWordHolds = probeFirstWords(filter, offset, blocks, bitsPerKey, hashes, from + start, chunk);
            for (int j = 0; j < chunk; j++) {
                long hash = hashes[from + start + j];
                long block = blockOffset(offset, hash, blocks);
                if (((firstWordHolds >>> j & 1) == 0 || !contains(filter, block, hash, bitsPerKey))
                        && BlockedBloomLayout.addAtomic(filter, block, hash, bitsPerKey)) {
                    added++;
                }
            }
        }
        return added;
    }

    /** Writes whether each hash's bits are all set, and returns how many are. */
    default long mightContain(MemorySegment filter, long offset, long blocks, int bitsPerKey, long[] hashes,
            int from, int count, boolean[] results, int resultsFrom) {
        long found = 0;
        for (int start = 0; start < count; start += CHUNK) {
            int chunk = Math.min(CHUNK, count - start);
            long firstWordHolds = probeFirstWords(filter, offset, blocks, bitsPerKey, hashes, from + start, chunk);
            for (int j = 0; j < chunk; j++) {
                long hash = hashes[from + start + j];
                boolean present = (firstWordHolds >>> j & 1) != 0
                        && contains(filter, blockOffset(offset, hash, blocks), hash, bitsPerKey);
                results[resultsFrom + start + j] = present;
                if (present) {
                    found++;
                }
            }
        }
        return found;
    }

    /**
     * The first phase: bit {@code j} of the result is set if word 0 of the block of
     * {@code hashes[from + j]} holds that key's bits, for {@code j < chunk <= 64}.
     */
    private static long probeFirstWords(MemorySegment filter, long offset, long blocks, int bitsPerKey,
            long[] hashes, int from, int chunk) {
        long holds = 0;
        for (int j = 0; j < chunk; j++) {
            long hash = hashes[from + j];
            long missing = wordPattern(hash, 0, bitsPerKey) & ~filter.get(LONG, blockOffset(offset, hash, blocks));
            holds |= (missing == 0 ? 1L : 0L) << j;
        }
        return holds;
    }
}
