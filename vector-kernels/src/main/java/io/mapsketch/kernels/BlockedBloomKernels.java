package io.mapsketch.kernels;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * Batch add and lookup for blocked Bloom filters whose blocks are 512 bits (one cache line), so a
 * key touches exactly one cache line. The layout is the engine's contract with the file format:
 *
 * <pre>
 * filter   = blocks x 64-byte block; block b starts at byte offset + 64 * b
 * block    = 8 little-endian 64-bit words; word w starts at byte 8 * w of its block
 * block(h) = unsignedMultiplyHigh(h, blocks)          = floor(h * blocks / 2^64), in [0, blocks)
 * p_w      = h * SALT[w] mod 2^64                     for w = 0..7, SALT in docs/file-format.md
 * k = 8    : word w of the block gets bit  p_w &gt;&gt;&gt; 58
 * k = 16   : word w of the block gets bits p_w &gt;&gt;&gt; 58 and (p_w &gt;&gt;&gt; 52) &amp; 63 (which may coincide)
 * </pre>
 *
 * The block index uses all 64 bits of the hash in 64-bit arithmetic, so a filter may have more than
 * 2^32 blocks. Keys are given as 64-bit hashes, for example from {@link HashKernels#xxh3(long,
 * long[], int, long[], int, int)}; the hashes must be uniformly distributed.
 *
 * <p><b>Concurrency.</b> {@link #add} uses plain loads and stores: one writer at a time (concurrent
 * plain adds may lose bits). {@link #addAtomic} sets bits with atomic ORs on 64-bit words, correct
 * with any number of writers in any number of processes that map the same file, and skips words
 * that already hold their bits, so re-adding present keys writes nothing. {@link #mightContain} may
 * run concurrently with either; a key added concurrently may or may not be seen.
 *
 * <p><b>Errors.</b> Arguments are checked before memory is touched: a slice or array range outside
 * its bounds is an {@link IndexOutOfBoundsException}; a block count below 1, a {@code bitsPerKey}
 * other than 8 or 16, a negative count, a read-only filter for an add, or a filter that is not
 * 8-byte aligned for {@link #addAtomic} is an {@link IllegalArgumentException}; each message names
 * the parameter, its value and the valid range.
 *
 * <p><b>Cost.</b> No allocation. An add or lookup of a key in a filter larger than the caches costs
 * about one cache miss (and, for a filter mapped with small pages, a TLB miss). Batches go in
 * phases, 256 keys at a time: first one load from each key's block, so that those misses overlap,
 * then the work on blocks that are now in cache. An atomic add costs a locked instruction per word
 * that lacks a bit.
 */
public final class BlockedBloomKernels {

    /** Bytes per block: one 64-byte cache line of eight 64-bit words. */
    public static final int BLOCK_BYTES = BlockedBloomLayout.BLOCK_BYTES;

    private static final BloomOps OPS = KernelProvider.active().blockedBloom();

    private BlockedBloomKernels() {}

    /**
     * Returns the block of a hash in a filter of {@code blocks} blocks:
     * {@code floor(hash * blocks / 2^64)} with {@code hash} read as unsigned.
     *
     * @param hash the key's 64-bit hash
     * @param blocks number of blocks, {@code >= 1}
     * @return the block index, in {@code [0, blocks)}
     * @throws IllegalArgumentException if {@code blocks < 1}
     */
    public static long blockIndex(long hash, long blocks) {
        checkBlocks(blocks);
        return BlockedBloomLayout.blockIndex(hash, blocks);
    }

    /**
     * Returns the bits a hash sets in one word of its block.
     *
     * @param hash the key's 64-bit hash
     * @param word the word of the block, {@code 0..7}
     * @param bitsPerKey 8 (one bit per word) or 16 (up to two bits per word)
     * @return the word's bit pattern: one bit set, or one or two for {@code bitsPerKey = 16}
     * @throws IllegalArgumentException if {@code word} or {@code bitsPerKey} is out of range
     */
    public static long wordPattern(long hash, int word, int bitsPerKey) {
        if (word < 0 || word >= BlockedBloomLayout.WORDS) {
            throw new IllegalArgumentException("word = " + word + ", must be in 0..7");
        }
        checkBitsPerKey(bitsPerKey);
        return BlockedBloomLayout.wordPattern(hash, word, bitsPerKey);
    }

    /**
     * Adds a batch of keys with plain stores, for a single writer. Blocks that already hold a key's
     * bits are not written.
     *
     * @param filter the segment holding the filter
     * @param offset byte offset of block 0 (a multiple of 64 keeps each block in one cache line)
     * @param blocks number of blocks, {@code >= 1}
     * @param bitsPerKey 8 or 16
     * @param hashes the keys' 64-bit hashes
     * @param from index of the first hash
     * @param count number of hashes, {@code >= 0}
     * @return the number of keys that had at least one bit missing when they were added, in batch
     *     order (a key that appears twice in the batch counts once)
     * @throws IllegalArgumentException if an argument is out of range or {@code filter} is read-only
     * @throws IndexOutOfBoundsException if the filter or the hash range is out of bounds
     */
    public static long add(
            MemorySegment filter, long offset, long blocks, int bitsPerKey, long[] hashes, int from, int count) {
        checkFilter(filter, offset, blocks, bitsPerKey, hashes, from, count);
        Checks.writable("filter", filter);
        return OPS.add(filter, offset, blocks, bitsPerKey, hashes, from, count);
    }

    /**
     * Adds a batch of keys with atomic ORs ({@code getAndBitwiseOr} on 64-bit words), for any number
     * of concurrent writers in any number of processes. A word that already holds a key's bits is
     * not written, so adding a present key costs only loads.
     *
     * @param filter the segment holding the filter
     * @param offset byte offset of block 0; {@code filter.address() + offset} must be a multiple of 8
     *     (a multiple of 64 keeps each block in one cache line)
     * @param blocks number of blocks, {@code >= 1}
     * @param bitsPerKey 8 or 16
     * @param hashes the keys' 64-bit hashes
     * @param from index of the first hash
     * @param count number of hashes, {@code >= 0}
     * @return the number of keys for which this call set at least one bit that was not set
     * @throws IllegalArgumentException if an argument is out of range, {@code filter} is read-only or
     *     its words are not 8-byte aligned
     * @throws IndexOutOfBoundsException if the filter or the hash range is out of bounds
     */
    public static long addAtomic(
            MemorySegment filter, long offset, long blocks, int bitsPerKey, long[] hashes, int from, int count) {
        checkFilter(filter, offset, blocks, bitsPerKey, hashes, from, count);
        checkAtomicWrites(filter, offset);
        return OPS.addAtomic(filter, offset, blocks, bitsPerKey, hashes, from, count);
    }

    /**
     * Adds one key with plain stores, for a single writer: {@link #add} for a batch of one, without
     * the batch's phases. The block is written only if a bit is missing.
     *
     * @param filter the segment holding the filter
     * @param offset byte offset of block 0
     * @param blocks number of blocks, {@code >= 1}
     * @param bitsPerKey 8 or 16
     * @param hash the key's 64-bit hash
     * @return whether a bit of the key was missing before
     * @throws IllegalArgumentException if an argument is out of range or {@code filter} is read-only
     * @throws IndexOutOfBoundsException if the filter is out of bounds
     */
    public static boolean addOne(MemorySegment filter, long offset, long blocks, int bitsPerKey, long hash) {
        checkFilter(filter, offset, blocks, bitsPerKey);
        Checks.writable("filter", filter);
        return OPS.setMissingBits(filter, BlockedBloomLayout.blockOffset(offset, hash, blocks), hash, bitsPerKey);
    }

    /**
     * Adds one key with atomic ORs, for any number of concurrent writers: {@link #addAtomic} for a
     * batch of one. A present key costs one block load and no write.
     *
     * @param filter the segment holding the filter
     * @param offset byte offset of block 0; {@code filter.address() + offset} must be a multiple of 8
     * @param blocks number of blocks, {@code >= 1}
     * @param bitsPerKey 8 or 16
     * @param hash the key's 64-bit hash
     * @return whether this call set a bit that was not set before
     * @throws IllegalArgumentException if an argument is out of range, {@code filter} is read-only or
     *     its words are not 8-byte aligned
     * @throws IndexOutOfBoundsException if the filter is out of bounds
     */
    public static boolean addOneAtomic(MemorySegment filter, long offset, long blocks, int bitsPerKey, long hash) {
        checkFilter(filter, offset, blocks, bitsPerKey);
        checkAtomicWrites(filter, offset);
        long block = BlockedBloomLayout.blockOffset(offset, hash, blocks);
        return !OPS.contains(filter, block, hash, bitsPerKey)
                && BlockedBloomLayout.addAtomic(filter, block, hash, bitsPerKey);
    }

    /**
     * Looks up one key: {@link #mightContain} for a batch of one. Cost: one block (cache line) load.
     *
     * @param filter the segment holding the filter
     * @param offset byte offset of block 0
     * @param blocks number of blocks, {@code >= 1}
     * @param bitsPerKey 8 or 16, as when the keys were added
     * @param hash the key's 64-bit hash
     * @return {@code true} if all of the key's bits are set (it may have been added)
     * @throws IllegalArgumentException if an argument is out of range
     * @throws IndexOutOfBoundsException if the filter is out of bounds
     */
    public static boolean mightContainOne(MemorySegment filter, long offset, long blocks, int bitsPerKey, long hash) {
        checkFilter(filter, offset, blocks, bitsPerKey);
        return OPS.contains(filter, BlockedBloomLayout.blockOffset(offset, hash, blocks), hash, bitsPerKey);
    }

    private static void checkAtomicWrites(MemorySegment filter, long offset) {
        Checks.writable("filter", filter);
        if (filter.maxByteAlignment() < Long.BYTES || ((filter.address() + offset) & (Long.BYTES - 1)) != 0) {
            throw new IllegalArgumentException("offset = " + offset + " puts the filter's words at address "
                    + (filter.address() + offset) + " of a segment aligned to " + filter.maxByteAlignment()
                    + " bytes: atomic adds need 8-byte aligned words (a native or mapped segment and an"
                    + " offset that is a multiple of 8)");
        }
    }

    /**
     * Looks up a batch of keys: {@code results[resultsFrom + i]} becomes {@code true} if all bits of
     * {@code hashes[from + i]} are set (the key may have been added) and {@code false} if one is
     * missing (the key was certainly not added).
     *
     * @param filter the segment holding the filter
     * @param offset byte offset of block 0
     * @param blocks number of blocks, {@code >= 1}
     * @param bitsPerKey 8 or 16, as when the keys were added
     * @param hashes the keys' 64-bit hashes
     * @param from index of the first hash
     * @param count number of hashes, {@code >= 0}
     * @param results receives one answer per key
     * @param resultsFrom index of the first answer
     * @return the number of keys found (the number of {@code true} answers written)
     * @throws IllegalArgumentException if an argument is out of range
     * @throws IndexOutOfBoundsException if the filter, the hash range or the result range is out of
     *     bounds
     */
    public static long mightContain(
            MemorySegment filter,
            long offset,
            long blocks,
            int bitsPerKey,
            long[] hashes,
            int from,
            int count,
            boolean[] results,
            int resultsFrom) {
        checkFilter(filter, offset, blocks, bitsPerKey, hashes, from, count);
        Checks.arrayRange(
                "results",
                Objects.requireNonNull(results, "results").length,
                "resultsFrom",
                resultsFrom,
                "count",
                count);
        return OPS.mightContain(filter, offset, blocks, bitsPerKey, hashes, from, count, results, resultsFrom);
    }

    private static void checkFilter(
            MemorySegment filter, long offset, long blocks, int bitsPerKey, long[] hashes, int from, int count) {
        checkFilter(filter, offset, blocks, bitsPerKey);
        Checks.arrayRange("hashes", Objects.requireNonNull(hashes, "hashes").length, "from", from, "count", count);
    }

    private static void checkFilter(MemorySegment filter, long offset, long blocks, int bitsPerKey) {
        checkBlocks(blocks);
        checkBitsPerKey(bitsPerKey);
        Checks.slice("filter", filter, "offset", offset, "blocks", blocks, BLOCK_BYTES);
    }

    private static void checkBlocks(long blocks) {
        if (blocks < 1) {
            throw new IllegalArgumentException("blocks = " + blocks + ", must be >= 1");
        }
    }

    private static void checkBitsPerKey(int bitsPerKey) {
        if (bitsPerKey != 8 && bitsPerKey != 16) {
            throw new IllegalArgumentException("bitsPerKey = " + bitsPerKey + ", must be 8 or 16");
        }
    }
}
