package io.mapsketch.memory;

import static io.mapsketch.memory.SketchFileLayout.*;

import io.mapsketch.memory.PayloadComparison.Finding;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.function.BooleanSupplier;
import java.util.zip.CRC32C;

/**
 * The payload checksum of format version {@value SketchFileLayout#PAYLOAD_CHECKSUM_VERSION}: one CRC32C
 * per payload chunk in the header page and the state that says whether they are current, laid out in
 * {@link SketchFileLayout} and {@code docs/file-format.md} ("Payload checksum").
 *
 * <p>Every writer adds 1 to the writer generation when it opens. {@code force()} records the digests
 * unsealed; the last writer's close, after it has left the live line and unmapped its region, computes
 * them from a mapping of its own and seals them at the generation it read before leaving, unless a
 * writer opened the file meanwhile. Both record under the digest lock, so digests of two computations
 * never mix. A reader calls a mismatch damage only if the digests were sealed at the current generation,
 * no writer is registered and the file was closed cleanly, the same before and after its pass.
 *
 * <p>Cost: every computation is one read of the payload through a mapping confined to the calling thread
 * (figures in {@code docs/reliability.md}, "Payload integrity", with the reasons for this design).
 */
final class PayloadChecksum {

    /** Bit 0 of the digest stamp: sealed by the last writer's close. */
    private static final long SEALED = 1;
    /** Largest slice handed to the CRC at once: a {@code ByteBuffer} holds at most 2^31 - 1 bytes. */
    private static final long PIECE = 1 << 30;
    /** Largest block of fill bytes the digests of a new payload are computed from. */
    private static final int FILL_BLOCK = 1 << 20;

    private PayloadChecksum() {}

    /**
     * Tells whether a file of this header keeps a payload checksum.
     *
     * @return {@code true} from format version {@value SketchFileLayout#PAYLOAD_CHECKSUM_VERSION} on
     */
    static boolean kept(SketchHeader header) {
        return header.formatVersion() >= PAYLOAD_CHECKSUM_VERSION;
    }

    /** The chunk size of a payload: the smallest power of two of at least 64 KiB that needs at most 512 chunks. */
    static long chunkBytes(long payloadLength) {
        long perChunk = Math.ceilDiv(payloadLength, MAX_CHUNKS);
        long size = MIN_CHUNK_BYTES;
        while (size < perChunk) {
            size <<= 1;
        }
        return size;
    }

    /** The number of chunks of a payload, 0 for an empty one. */
    static int chunkCount(long payloadLength) {
        return (int) Math.ceilDiv(payloadLength, chunkBytes(payloadLength));
    }

    /**
     * Refuses a checksum line that no writer leaves: a negative generation, non-zero reserved bytes or a
     * digest of a chunk the payload does not have. (A stamp ahead of the generation is left to
     * {@link #verify}: the page is read while writers may update both words.)
     */
    static void checkLine(MemorySegment page, Path file, long payloadLength) throws FileFault {
        long generation = page.get(HeaderCodec.LONG, GENERATION_OFFSET);
        if (generation < 0) {
            throw HeaderCodec.corrupt(
                    file, "writer generation", GENERATION_OFFSET, "a count >= 0", Long.toString(generation));
        }
        for (int offset = CHECKSUM_RESERVED_OFFSET; offset < CHECKSUM_OFFSET + CACHE_LINE; offset += 8) {
            long value = page.get(HeaderCodec.LONG, offset);
            if (value != 0) {
                throw HeaderCodec.corrupt(file, "reserved", offset, "0", HeaderCodec.hex(value));
            }
        }
        int chunks = chunkCount(payloadLength);
        for (int chunk = chunks; chunk < MAX_CHUNKS; chunk++) {
            int offset = DIGESTS_OFFSET + 4 * chunk;
            int digest = page.get(HeaderCodec.INT, offset);
            if (digest != 0) {
                throw HeaderCodec.corrupt(
                        file,
                        "chunk digest " + chunk,
                        offset,
                        "0 (the payload has " + chunks + " chunks)",
                        HeaderCodec.hex(digest));
            }
        }
    }

    /**
     * Writes into a new header page the digests of a payload whose every byte is {@code fill}, sealed at
     * generation 0. Cost: the CRC of at most two chunks of fill bytes.
     */
    static void writeForFill(MemorySegment page, long payloadLength, byte fill) {
        int chunks = chunkCount(payloadLength);
        if (chunks > 0) {
            long chunk = chunkBytes(payloadLength);
            int full = fillDigest(chunk, fill);
            long lastLength = payloadLength - (chunks - 1) * chunk;
            for (int i = 0; i < chunks - 1; i++) {
                page.set(HeaderCodec.INT, DIGESTS_OFFSET + 4L * i, full);
            }
            page.set(
                    HeaderCodec.INT,
                    DIGESTS_OFFSET + 4L * (chunks - 1),
                    lastLength == chunk ? full : fillDigest(lastLength, fill));
        }
        page.set(HeaderCodec.LONG, DIGEST_STAMP_OFFSET, SEALED);
    }

    private static int fillDigest(long length, byte fill) {
        byte[] block = new byte[(int) Math.min(length, FILL_BLOCK)];
        Arrays.fill(block, fill);
        CRC32C crc = new CRC32C();
        for (long done = 0; done < length; done += block.length) {
            crc.update(block, 0, (int) Math.min(block.length, length - done));
        }
        return (int) crc.getValue();
    }

    /** Counts a writer that has just registered in the live line (after the writers count, see the class comment). */
    static void writerAttached(AtomicSegment page) {
        page.getAndAddLong(GENERATION_OFFSET, 1);
    }

    /** The writer generation; the last writer reads it before it leaves the live line. */
    static long generation(AtomicSegment page) {
        return page.getLongAcquire(GENERATION_OFFSET);
    }

    /**
     * Records the digests of the payload as it is now, unsealed, for {@code force()}. If another writer keeps
     * the digest lock past its timeout, records nothing: the digests then stay stale, which verify reports.
     */
    static void recordAtForce(AtomicSegment page, FileChannel channel, SketchHeader header, Path file)
            throws IOException {
        underDigestLock(page, () -> {
            long generation = generation(page);
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment payload = map(channel, header, file, FileChannel.MapMode.READ_ONLY, arena)
                        .asSlice(header.payloadOffset());
                publish(page, digests(payload, () -> true), generation << 1);
            }
        });
    }

    /**
     * Closes the file for its last writer, whose region is already unmapped: seals the digests of the payload
     * at {@code generation} (read before the writer left the live line) unless a writer has opened the file
     * since, then sets the clean-close flag.
     */
    static void closeLastWriter(FileChannel channel, SketchHeader header, Path file, long generation)
            throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment mapping = map(channel, header, file, FileChannel.MapMode.READ_WRITE, arena);
            AtomicSegment page = new AtomicSegment(mapping.asSlice(0, HEADER_LENGTH));
            seal(page, mapping.asSlice(header.payloadOffset(), header.payloadLength()), generation);
            page.getAndOrInt(FLAGS_OFFSET, FLAG_CLEAN_CLOSE);
        }
    }

    /**
     * Seals the digests at {@code generation} unless the generation moves before they are recorded; the
     * computation stops at the first chunk after it moves.
     */
    static void seal(AtomicSegment page, MemorySegment payload, long generation) {
        underDigestLock(page, () -> {
            BooleanSupplier unchanged = () -> generation(page) == generation;
            int[] digests = digests(payload, unchanged);
            if (digests != null && unchanged.getAsBoolean()) {
                publish(page, digests, generation << 1 | SEALED);
            }
        });
    }

    /** Runs {@code action} holding the digest lock; does nothing if another writer keeps it past the lock's timeout. */
    private static <E extends Exception> void underDigestLock(AtomicSegment page, DigestAction<E> action) throws E {
        RegionLock lock = new RegionLock(page, DIGEST_LOCK_OFFSET);
        try {
            lock.lock();
        } catch (LockTimeoutFault busy) {
            return;
        }
        try {
            action.run();
        } finally {
            lock.unlock();
        }
    }

    /** What a writer does with the digests while it holds their lock. */
    @FunctionalInterface
    private interface DigestAction<E extends Exception> {
        void run() throws E;
    }

    private static void publish(AtomicSegment page, int[] digests, long stamp) {
        for (int i = 0; i < digests.length; i++) {
            page.putInt(DIGESTS_OFFSET + 4L * i, digests[i]);
        }
        page.putLongRelease(DIGEST_STAMP_OFFSET, stamp);
    }

    /**
     * Compares the payload with its digests: one pass over a mapping of its own, between two readings of the
     * checksum state.
     */
    static PayloadComparison verify(AtomicSegment page, FileChannel channel, SketchHeader header, Path file)
            throws IOException {
        State before = State.read(page);
        int[] recorded = new int[chunkCount(header.payloadLength())];
        for (int i = 0; i < recorded.length; i++) {
            recorded[i] = page.getInt(DIGESTS_OFFSET + 4L * i);
        }
        int[] actual;
        try (Arena arena = Arena.ofConfined()) {
            actual = digests(
                    map(channel, header, file, FileChannel.MapMode.READ_ONLY, arena)
                            .asSlice(header.payloadOffset()),
                    () -> true);
        }
        State after = State.read(page);
        int bad = Arrays.mismatch(recorded, actual);
        if (bad < 0) {
            return new PayloadComparison(Finding.OK, file, 0, 0, header.formatVersion(), after.writers);
        }
        long chunk = chunkBytes(header.payloadLength());
        long from = bad * chunk;
        long to = Math.min(header.payloadLength(), from + chunk);
        int writers = Math.max(before.writers, after.writers);
        Finding finding;
        if (writers != 0 || !before.equals(after)) {
            finding = Finding.STALE_WRITERS_ATTACHED;
        } else if (!after.sealedAndClean()) {
            finding = Finding.STALE_CLOSED_UNCLEANLY;
        } else {
            finding = Finding.CORRUPT;
        }
        return new PayloadComparison(finding, file, from, to, header.formatVersion(), writers);
    }

    /**
     * The whole file behind {@code channel}, mapped into {@code arena} once its length is checked: a mapping
     * past the end would fault, and a writable one would extend the file.
     */
    private static MemorySegment map(
            FileChannel channel, SketchHeader header, Path file, FileChannel.MapMode mode, Arena arena)
            throws IOException {
        long length = channel.size();
        if (length != header.fileLength()) {
            throw new FileFault(
                    FileFault.Reason.CORRUPT,
                    file,
                    "file length is " + length + " bytes, expected "
                            + header.fileLength() + "; the file was truncated or extended while open, so its checksum"
                            + " cannot be computed");
        }
        return channel.map(mode, 0, length, arena);
    }

    /**
     * The digests of every chunk of {@code payload}, or {@code null} if {@code keepGoing} turns false before
     * a chunk; the payload must be mapped in a confined arena of this thread.
     */
    static int[] digests(MemorySegment payload, BooleanSupplier keepGoing) {
        long length = payload.byteSize();
        long chunk = chunkBytes(length);
        int[] digests = new int[chunkCount(length)];
        for (int i = 0; i < digests.length; i++) {
            if (!keepGoing.getAsBoolean()) {
                return null;
            }
            long from = i * chunk;
            CRC32C crc = new CRC32C();
            long end = Math.min(length, from + chunk);
            for (long at = from; at < end; at += PIECE) {
                crc.update(payload.asSlice(at, Math.min(PIECE, end - at)).asByteBuffer());
            }
            digests[i] = (int) crc.getValue();
        }
        return digests;
    }

    /** The digests of a payload handed over piece by piece in file order, for a payload never whole in memory. */
    static final class Running {

        private final long length;
        private final long chunk;
        private final int[] digests;
        private final CRC32C crc = new CRC32C();
        private long done;

        Running(long payloadLength) {
            this.length = payloadLength;
            this.chunk = chunkBytes(payloadLength);
            this.digests = new int[chunkCount(payloadLength)];
        }

        /** Takes the next piece; refuses one that runs past the payload's end. */
        void update(MemorySegment piece) {
            long size = piece.byteSize();
            if (size > length - done) {
                throw new IllegalArgumentException("payload pieces add up to more than the payload's " + length
                        + " bytes: a piece of " + size + " bytes at payload byte " + done);
            }
            for (long at = 0; at < size; ) {
                long step = Math.min(Math.min(PIECE, size - at), chunk - done % chunk);
                crc.update(piece.asSlice(at, step).asByteBuffer());
                at += step;
                done += step;
                if (done % chunk == 0 || done == length) {
                    digests[(int) ((done - 1) / chunk)] = (int) crc.getValue();
                    crc.reset();
                }
            }
        }

        /** The digests of every chunk; refuses a payload that is not complete. */
        int[] digests() {
            if (done != length) {
                throw new IllegalArgumentException(
                        "payload pieces add up to " + done + " bytes, the payload has " + length);
            }
            return digests.clone();
        }
    }

    /** The checksum state of a file at one moment. */
    private record State(long stamp, long generation, int writers, int flags) {

        /** Reads the stamp before the generation, so a stamp that was recorded is never ahead of it. */
        static State read(AtomicSegment page) {
            long stamp = page.getLongAcquire(DIGEST_STAMP_OFFSET);
            return new State(
                    stamp,
                    PayloadChecksum.generation(page),
                    page.getIntAcquire(WRITERS_OFFSET),
                    page.getIntAcquire(FLAGS_OFFSET));
        }

        /** Sealed at the current generation, and the last writer's close completed. */
        boolean sealedAndClean() {
            return (stamp & SEALED) != 0 && stamp >>> 1 == generation && (flags & FLAG_CLEAN_CLOSE) != 0;
        }
    }
}
