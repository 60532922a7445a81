package io.mapsketch.kernels;

import static io.mapsketch.kernels.BlockedBloomLayout.blockOffset;
import static io.mapsketch.kernels.Layouts.LONG;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * Blocked Bloom filter batch kernels over the layout of {@link BlockedBloomLayout}. An
 * implementation supplies the per-block steps; the batch loops here are shared. Arguments are
 * trusted (the facade {@link BlockedBloomKernels} checks them).
 *
 * <p>Every batch but the plain add goes in chunks of {@value #CHUNK} keys and two phases. The first only loads word 0
 * of each key's block and ORs the words together, so that the chunk's cache misses are in flight at
 * once. Its loop must stay short: a load that misses holds its place in the reorder buffer until the
 * line arrives, so the fewer instructions each key adds there, the more keys' misses overlap (a first
 * phase that also tested word 0 against the key's bits overlapped about half as many). The second
 * phase does the per-key work on blocks that are now in cache, without a branch on the answer. The
 * first phase's OR is zero only if no key of the chunk can be present (every key has a bit in word
 * 0), which lets an empty region of the filter skip the second phase.
 */
interface BloomOps {

    /** Keys per chunk: their blocks (16 KiB) stay in the L1 cache between the two phases. */
    int CHUNK = 256;

    /** Whether the block at byte offset {@code block} holds all of the hash's bits. */
    boolean contains(MemorySegment filter, long block, long hash, int bitsPerKey);

    /** ORs the hash's bits into the block at byte offset {@code block} with plain loads and stores. */
    void setBits(MemorySegment filter, long block, long hash, int bitsPerKey);

    /**
     * Sets the hash's bits in the block at byte offset {@code block} if any is missing, with plain loads and
     * stores, writing nothing when all are set; returns whether one was missing.
     */
    default boolean setMissingBits(MemorySegment filter, long block, long hash, int bitsPerKey) {
        if (contains(filter, block, hash, bitsPerKey)) {
            return false;
        }
        setBits(filter, block, hash, bitsPerKey);
        return true;
    }

    /**
     * Sets each hash's bits with plain stores, writing only blocks that miss a bit ({@link #setMissingBits});
     * returns how many keys had a bit missing when their turn came (a key repeated in the batch counts once).
     * One pass: an add's test of its block is followed by a write the next key does not wait for, so the
     * misses of consecutive keys overlap without a first phase (which measured slower for adds, in cache and
     * out: {@code docs/design/membership.md}, "Bloom filters: adds in one pass").
     */
    default long add(
            MemorySegment filter, long offset, long blocks, int bitsPerKey, long[] hashes, int from, int count) {
        long added = 0;
        for (int i = from; i < from + count; i++) {
            long hash = hashes[i];
            if (setMissingBits(filter, blockOffset(offset, hash, blocks), hash, bitsPerKey)) {
                added++;
            }
        }
        return added;
    }

    /**
     * Sets each hash's bits with atomic ORs, skipping keys whose bits are all set and, within a
     * block, words that hold their bits already; returns how many keys this call changed.
     */
    default long addAtomic(
            MemorySegment filter, long offset, long blocks, int bitsPerKey, long[] hashes, int from, int count) {
        long added = 0;
        for (int start = 0; start < count; start += CHUNK) {
            int chunk = Math.min(CHUNK, count - start);
            boolean emptyWords = touch(filter, offset, blocks, hashes, from + start, chunk) == 0;
            for (int j = 0; j < chunk; j++) {
                long hash = hashes[from + start + j];
                long block = blockOffset(offset, hash, blocks);
                if ((emptyWords || !contains(filter, block, hash, bitsPerKey))
                        && BlockedBloomLayout.addAtomic(filter, block, hash, bitsPerKey)) {
                    added++;
                }
            }
        }
        return added;
    }

    /** Writes whether each hash's bits are all set, and returns how many are. */
    default long mightContain(
            MemorySegment filter,
            long offset,
            long blocks,
            int bitsPerKey,
            long[] hashes,
            int from,
            int count,
            boolean[] results,
            int resultsFrom) {
        long found = 0;
        for (int start = 0; start < count; start += CHUNK) {
            int chunk = Math.min(CHUNK, count - start);
            int answers = resultsFrom + start;
            if (touch(filter, offset, blocks, hashes, from + start, chunk) == 0) {
                Arrays.fill(results, answers, answers + chunk, false);
                continue;
            }
            for (int j = 0; j < chunk; j++) {
                long hash = hashes[from + start + j];
                boolean present = contains(filter, blockOffset(offset, hash, blocks), hash, bitsPerKey);
                results[answers + j] = present;
                found += present ? 1 : 0;
            }
        }
        return found;
    }

    /**
     * The first phase: the OR of word 0 of the blocks of {@code hashes[from, from + chunk)}. Zero
     * means that no key of the chunk has all its bits (each has one in word 0).
     */
    private static long touch(MemorySegment filter, long offset, long blocks, long[] hashes, int from, int chunk) {
        long words = 0;
        for (int j = 0; j < chunk; j++) {
            words |= filter.get(LONG, blockOffset(offset, hashes[from + j], blocks));
        }
        return words;
    }
}
