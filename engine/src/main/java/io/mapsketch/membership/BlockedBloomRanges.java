package io.mapsketch.membership;

import io.mapsketch.CreateOption;
import io.mapsketch.SketchImage;
import io.mapsketch.internal.KeyHasher;
import io.mapsketch.internal.Regions;
import io.mapsketch.kernels.BlockedBloomKernels;
import io.mapsketch.memory.SketchHeader;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Objects;

/**
 * A blocked Bloom filter built in pieces, for a filter larger than one machine's memory: its blocks are split
 * into {@code R} contiguous ranges whose sizes differ by at most one block, each range is built apart from the
 * keys whose block falls in it ({@link #rangeOf}, {@link #newRange}, {@link Part#add}), and {@link #write} puts
 * the ranges, in order, into one file. The file is byte for byte the {@linkplain SketchImage#toBytes(
 * io.mapsketch.Sketch, Instant) image} of the {@link BlockedBloomFilter} that the same builder makes and that
 * every key is added to, with the same creation time: a key sets the same bits in its range as in the whole
 * filter, and the items counter is the sum of the ranges' counts.
 *
 * <p>Memory: a range holds at most {@link #MAX_RANGE_BYTES}, so a filter needs at least
 * {@code ceil(filter bytes / MAX_RANGE_BYTES)} ranges; a builder of one range needs its range's bytes,
 * about {@code filter bytes / R}. Writing needs one range at a time.
 *
 * <p>Error direction: as the filter's, false positives only. Cost: a key's range and its add take a few
 * multiplications and eight word updates, without the filter's batched SIMD kernels.
 */
public final class BlockedBloomRanges {

    /** The largest range, in bytes: the whole 64-byte blocks that fit the longest Java array. */
    public static final long MAX_RANGE_BYTES =
            SketchImage.MAX_LENGTH / BlockedBloomKernels.BLOCK_BYTES * BlockedBloomKernels.BLOCK_BYTES;

    private static final int BLOCK_BYTES = BlockedBloomKernels.BLOCK_BYTES;
    private static final int WORDS = BLOCK_BYTES / Long.BYTES;
    private static final ValueLayout.OfLong WORD = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final SketchHeader header;
    private final KeyHasher hasher;
    private final long blocks;
    private final int bitsPerKey;
    private final int ranges;
    private final long quotient;
    private final long remainder;

    private BlockedBloomRanges(SketchHeader header, BlockedBloomFormat format, int ranges) {
        this.header = header;
        this.hasher = KeyHasher.of(header.hashScheme(), header.hashSeed());
        this.blocks = format.blocks();
        this.bitsPerKey = format.bitsPerKey();
        this.ranges = ranges;
        this.quotient = blocks / ranges;
        this.remainder = blocks % ranges;
    }

    /**
     * Splits the filter that {@code builder} sizes (its items, rate and seed) into {@code ranges} ranges.
     *
     * @param builder a blocked Bloom filter builder with its parameters set; not kept
     * @param ranges R, in [{@code ceil(filter bytes / MAX_RANGE_BYTES)}, blocks]
     * @return the split
     * @throws IllegalArgumentException if {@code ranges} is out of range (naming the range) or the parameters
     *     cannot be sized
     * @throws IllegalStateException if a required parameter of the builder was not set
     */
    public static BlockedBloomRanges of(BlockedBloomFilter.Builder builder, int ranges) {
        BlockedBloomFormat format = builder.format();
        SketchHeader header = builder.sizedHeader();
        long fewest = Math.ceilDiv(format.payloadBytes(), MAX_RANGE_BYTES);
        long most = Math.min(format.blocks(), Integer.MAX_VALUE);
        if (ranges < fewest || ranges > most) {
            throw new IllegalArgumentException("ranges = " + ranges + ", must be in [" + fewest + ", " + most
                    + "] for a filter of " + format.blocks() + " blocks (" + format.payloadBytes()
                    + " bytes; a range holds at most " + MAX_RANGE_BYTES + ")");
        }
        return new BlockedBloomRanges(header, format, ranges);
    }

    /**
     * Returns R, the number of ranges.
     *
     * @return R
     */
    public int ranges() {
        return ranges;
    }

    /**
     * Returns the filter's number of 512-bit blocks.
     *
     * @return blocks
     */
    public long blockCount() {
        return blocks;
    }

    /**
     * Returns the bytes of the whole filter's bit array (the file's payload).
     *
     * @return blocks x 64
     */
    public long filterBytes() {
        return blocks * BLOCK_BYTES;
    }

    /**
     * Returns the first block of a range: {@code floor(r * blocks / R)}.
     *
     * @param range r, in [0, R]; R gives the filter's block count
     * @return the block index
     * @throws IllegalArgumentException if {@code range} is out of range
     */
    public long firstBlock(int range) {
        if (range < 0 || range > ranges) {
            throw new IllegalArgumentException("range = " + range + ", must be in [0, " + ranges + "]");
        }
        return start(range);
    }

    /**
     * Returns the range of a key's hash: the range its block falls in.
     *
     * @param hash the key's hash, from {@code hash(...)}
     * @return r, in [0, R)
     */
    public int rangeOf(long hash) {
        long block = BlockedBloomKernels.blockIndex(hash, blocks);
        int range = (int) Math.min(ranges - 1, (long) ((double) block * ranges / blocks));
        while (range + 1 < ranges && start(range + 1) <= block) {
            range++;
        }
        while (start(range) > block) {
            range--;
        }
        return range;
    }

    /**
     * Returns the filter's hash of a {@code long} key, as {@link BlockedBloomFilter#add(long)} computes it.
     *
     * @param key the key
     * @return its hash
     */
    public long hash(long key) {
        return hasher.hash(key);
    }

    /**
     * Returns the filter's hash of the bytes {@code key[offset, offset + length)}.
     *
     * @param key the array
     * @param offset first byte
     * @param length number of bytes
     * @return its hash
     * @throws IndexOutOfBoundsException if the range is outside the array
     */
    public long hash(byte[] key, int offset, int length) {
        return hasher.hash(key, offset, length);
    }

    /**
     * Returns the filter's hash of a string's UTF-8 bytes.
     *
     * @param key the characters
     * @return its hash
     */
    public long hash(CharSequence key) {
        return hasher.hash(key);
    }

    /**
     * Starts one range, empty, on the heap.
     *
     * @param range r, in [0, R)
     * @return a part of {@code (firstBlock(r + 1) - firstBlock(r)) x 64} zero bytes and no items
     * @throws IllegalArgumentException if {@code range} is out of range
     */
    public Part newRange(int range) {
        checkRange(range);
        return new Part(range, 0, new byte[(int) (partBlocks(range) * BLOCK_BYTES)]);
    }

    /**
     * Takes a range built elsewhere (its bits shipped as bytes): the part {@link Part#bits()} and
     * {@link Part#itemsAdded()} of a range of the same split gave.
     *
     * @param range r, in [0, R)
     * @param itemsAdded the keys the range counted, at least 0
     * @param bits the range's blocks; kept, not copied
     * @return the part
     * @throws IllegalArgumentException if {@code range} or {@code itemsAdded} is out of range, or {@code bits}
     *     is not the range's length
     */
    public Part part(int range, long itemsAdded, byte[] bits) {
        checkRange(range);
        if (itemsAdded < 0) {
            throw new IllegalArgumentException("itemsAdded = " + itemsAdded + ", must be >= 0");
        }
        long length = partBlocks(range) * BLOCK_BYTES;
        if (bits.length != length) {
            throw new IllegalArgumentException("bits.length = " + bits.length + ", must be " + length + " (range "
                    + range + " of " + ranges + " holds " + partBlocks(range) + " blocks)");
        }
        return new Part(range, itemsAdded, bits);
    }

    /**
     * Writes the filter of every range to a new file with the engine's crash-safe creation (a temporary file,
     * forced, then given its name): the file appears complete, or not at all. It is the image of the whole
     * filter created at {@code created}; {@link BlockedBloomFilter#open} reads it.
     *
     * @param file where the filter file goes
     * @param created the creation time its header records, such as {@link Instant#EPOCH} for a file that depends
     *     on the keys alone
     * @param parts the ranges, each once, in order 0 to R - 1; each is written before the next is asked for
     * @param options {@link CreateOption#OVERWRITE_EXISTING} to replace a file no writer has open, and the like
     * @throws IllegalArgumentException if a part is out of order, missing or of another split, or
     *     {@code created} is not representable in milliseconds (nothing appears at {@code file})
     * @throws java.nio.file.FileAlreadyExistsException if the file exists and overwriting was not asked for
     * @throws io.mapsketch.SketchFileException if overwriting was asked for and writers have the file open
     * @throws IOException if the file cannot be written
     */
    public void write(Path file, Instant created, Iterator<Part> parts, CreateOption... options) throws IOException {
        Objects.requireNonNull(parts, "parts");
        Objects.requireNonNull(created, "created");
        long createdMillis;
        try {
            createdMillis = created.toEpochMilli();
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException(
                    "created = " + created + ", must be within +-2^63 milliseconds of the epoch", e);
        }
        SketchHeader stamped = new SketchHeader(
                header.kindId(),
                header.hashScheme(),
                header.hashSeed(),
                header.parameters(),
                header.payloadOffset(),
                header.payloadLength(),
                createdMillis,
                header.formatVersion());
        InOrder pieces = new InOrder(parts);
        Regions.createFromPieces(
                stamped, pieces::items, () -> 0, pieces, Objects.requireNonNull(file, "file"), options);
    }

    /** Hands the parts' bits to the file writer in order, counting their items into the header it writes. */
    private final class InOrder implements Iterator<MemorySegment> {

        private final Iterator<Part> parts;
        private int next;
        private long items;

        InOrder(Iterator<Part> parts) {
            this.parts = parts;
        }

        @Override
        public boolean hasNext() {
            if (next < ranges && !parts.hasNext()) {
                throw new IllegalArgumentException(
                        "parts end after " + next + " ranges, the filter has " + ranges + "; nothing was written");
            }
            if (next == ranges && parts.hasNext()) {
                throw new IllegalArgumentException("parts go on past the last range, " + (ranges - 1));
            }
            return next < ranges;
        }

        @Override
        public MemorySegment next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            Part part = parts.next();
            if (part.owner() != BlockedBloomRanges.this || part.range != next) {
                throw new IllegalArgumentException("part of range " + part.range
                        + (part.owner() == BlockedBloomRanges.this ? "" : " of another split") + ", expected range "
                        + next + " of this split");
            }
            next++;
            items += part.items;
            return MemorySegment.ofArray(part.bits);
        }

        /** The items of the parts handed over. */
        long items() {
            return items;
        }
    }

    private long start(int range) {
        return range * quotient + range * remainder / ranges;
    }

    private long partBlocks(int range) {
        return start(range + 1) - start(range);
    }

    private void checkRange(int range) {
        if (range < 0 || range >= ranges) {
            throw new IllegalArgumentException("range = " + range + ", must be in [0, " + (ranges - 1) + "]");
        }
    }

    /**
     * One range of the filter: its blocks' bits, which {@link #add} sets exactly as the whole filter would, and
     * the keys it counted. One writer at a time.
     */
    public final class Part {

        private final int range;
        private final long first;
        private final byte[] bits;
        private final MemorySegment words;
        private long items;

        private Part(int range, long items, byte[] bits) {
            this.range = range;
            this.first = start(range);
            this.items = items;
            this.bits = bits;
            this.words = MemorySegment.ofArray(bits);
        }

        /**
         * Adds a key of this range, as {@link BlockedBloomFilter#add(long)} would add it to the whole filter,
         * and counts it.
         *
         * @param hash the key's hash, from {@code hash(...)}, whose {@link #rangeOf} is this range
         * @throws IllegalArgumentException if the hash's block is in another range
         */
        public void add(long hash) {
            long block = BlockedBloomKernels.blockIndex(hash, blocks) - first;
            if (block < 0 || block >= words.byteSize() / BLOCK_BYTES) {
                throw new IllegalArgumentException("hash " + Long.toHexString(hash) + " falls in range " + rangeOf(hash)
                        + ", this part is range " + range);
            }
            long at = block * BLOCK_BYTES;
            for (int w = 0; w < WORDS; w++) {
                long offset = at + (long) w * Long.BYTES;
                words.set(WORD, offset, words.get(WORD, offset) | BlockedBloomKernels.wordPattern(hash, w, bitsPerKey));
            }
            items++;
        }

        /**
         * Returns the range's index.
         *
         * @return r
         */
        public int range() {
            return range;
        }

        /**
         * Returns the keys added to this range (a key added twice counts twice, as in the filter).
         *
         * @return the count
         */
        public long itemsAdded() {
            return items;
        }

        /**
         * Returns the range's blocks, the bytes the file holds at payload byte {@code firstBlock(r) x 64}: the
         * part's own array, not a copy.
         *
         * @return the bits
         */
        public byte[] bits() {
            return bits;
        }

        private BlockedBloomRanges owner() {
            return BlockedBloomRanges.this;
        }
    }
}
