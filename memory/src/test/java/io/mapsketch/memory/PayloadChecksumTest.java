package io.mapsketch.memory;

import static io.mapsketch.memory.Faults.assertFault;
import static io.mapsketch.memory.FileFault.Reason.CORRUPT;
import static io.mapsketch.memory.SketchFileLayout.*;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.doubles;
import static org.quicktheories.generators.SourceDSL.integers;

import io.mapsketch.memory.PayloadComparison.Finding;
import io.mapsketch.testing.ChildJvm;
import io.mapsketch.testing.HeaderSeal;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The payload checksum of format version 4: what {@link SketchRegion#verify()} claims after clean closes,
 * {@code force()}, damage from outside, attached and killed writers, in files of every format version.
 */
class PayloadChecksumTest {

    @TempDir
    Path dir;

    private static SketchHeader header(long payloadLength) {
        return SketchFiles.header(TestKinds.COUNT_MIN, payloadLength).withFormatVersion(FORMAT_VERSION);
    }

    private Path newFile(String name, long payloadLength) throws IOException {
        return SketchFiles.create(dir.resolve(name), header(payloadLength));
    }

    private static PayloadComparison verify(Path file) throws IOException {
        try (SketchRegion region = SketchRegions.open(file, RegionMode.READ_ONLY)) {
            return region.verify();
        }
    }

    /** XORs {@code mask} into payload byte {@code offset} with plain file I/O, as damage from outside does. */
    private static void flip(Path file, long offset, int mask) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer one = ByteBuffer.allocate(1);
            channel.read(one, HEADER_LENGTH + offset);
            one.put(0, (byte) (one.get(0) ^ mask)).rewind();
            channel.write(one, HEADER_LENGTH + offset);
        }
    }

    /** The chunk size of {@code docs/file-format.md}: the smallest power of two of at least 64 KiB with L at most 512 C. */
    private static long documentedChunk(long payloadLength) {
        long chunk = 64 * 1024;
        while (512 * chunk < payloadLength) {
            chunk *= 2;
        }
        return chunk;
    }

    @Test
    void chunksAreTheDocumentedPowersOfTwo() {
        assertEquals(0, PayloadChecksum.chunkCount(0));
        assertEquals(65_536, PayloadChecksum.chunkBytes(1));
        assertEquals(1, PayloadChecksum.chunkCount(1));
        assertEquals(512, PayloadChecksum.chunkCount(32L << 20));
        assertEquals(131_072, PayloadChecksum.chunkBytes((32L << 20) + 1));
        assertEquals(257, PayloadChecksum.chunkCount((32L << 20) + 1));
        assertEquals(2L << 20, PayloadChecksum.chunkBytes(1L << 30));
        assertEquals(1L << 54, PayloadChecksum.chunkBytes(SketchHeader.MAX_PAYLOAD_LENGTH));
        assertEquals(512, PayloadChecksum.chunkCount(SketchHeader.MAX_PAYLOAD_LENGTH));
    }

    /** The worked example of {@code docs/file-format.md}: the digests of a new zero payload. */
    @Test
    void aNewPayloadHasTheDocumentedDigests() throws IOException {
        Path file = newFile("example.sketch", 54_400);
        ByteBuffer page = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(0x0DF30D12, page.getInt(DIGESTS_OFFSET));
        assertEquals(0, page.getInt(DIGESTS_OFFSET + 4), "one chunk");
        Path twoChunks = newFile("two.sketch", 65_536 + 64);
        assertEquals(
                0x72C0C4A4,
                ByteBuffer.wrap(Files.readAllBytes(twoChunks))
                        .order(ByteOrder.LITTLE_ENDIAN)
                        .getInt(DIGESTS_OFFSET));
    }

    @Test
    void aNewFileIsOkWhateverItsFill() throws IOException {
        for (byte fill : new byte[] {0, (byte) 0xFF}) {
            Path file = dir.resolve("filled-" + fill + ".sketch");
            SketchRegions.create(file, header((3L << 20) + 4096 + 64), fill, RegionMode.EXCLUSIVE)
                    .close();
            PayloadComparison result = verify(file);
            assertEquals(Finding.OK, result.finding(), result.toString());
            assertEquals(file, result.file());
        }
    }

    @Test
    void aFlippedPayloadBitOfAClosedFileIsCorruptAndNamesItsChunk() {
        qt().withFixedSeed(19L)
                .withExamples(25)
                .forAll(
                        integers().between(1, 1 << 20),
                        doubles().between(0, 1),
                        integers().between(0, 7))
                .checkAssert((lines, where, bit) -> {
                    try {
                        long length = 64L * lines;
                        Path file = newFile("flipped.sketch", length);
                        try (SketchRegion writer = SketchRegions.open(file, RegionMode.SHARED)) {
                            writer.payload().getAndAddLong(8 * (long) (where * (length / 8 - 1)), 3);
                        }
                        long offset = Math.min(length - 1, (long) (where * length));
                        flip(file, offset, 1 << bit);
                        PayloadComparison result = verify(file);
                        long chunk = documentedChunk(length);
                        long from = offset / chunk * chunk;
                        long to = Math.min(length, from + chunk);
                        assertEquals(Finding.CORRUPT, result.finding(), result.toString());
                        assertEquals(from, result.from());
                        assertEquals(to, result.to());
                        SketchRegions.open(file, RegionMode.EXCLUSIVE).close();
                        assertEquals(Finding.OK, verify(file).finding(), "a clean close records the payload anew");
                        Files.delete(file);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
    }

    @Test
    void aMismatchWhileWritersAreAttachedIsStaleNotCorrupt() throws IOException {
        Path file = newFile("attached.sketch", 1 << 20);
        try (SketchRegion writer = SketchRegions.open(file, RegionMode.SHARED);
                SketchRegion reader = SketchRegions.open(file, RegionMode.READ_ONLY)) {
            assertEquals(Finding.OK, reader.verify().finding(), "nothing written since the creation's checksum");
            writer.payload().getAndAddLong(300_000, 1);
            for (SketchRegion region : new SketchRegion[] {writer, reader}) {
                PayloadComparison result = region.verify();
                assertEquals(Finding.STALE_WRITERS_ATTACHED, result.finding(), result.toString());
                assertEquals(1, result.writers());
                assertEquals(262_144, result.from());
                assertEquals(327_680, result.to());
            }
        }
        assertEquals(Finding.OK, verify(file).finding());
    }

    @Test
    void forceRecordsTheChecksumWhileNoOtherWriterWrites() throws IOException {
        Path file = newFile("forced.sketch", 5 << 20);
        try (SketchRegion first = SketchRegions.open(file, RegionMode.SHARED);
                SketchRegion second = SketchRegions.open(file, RegionMode.SHARED)) {
            first.payload().getAndAddLong(8, 1);
            second.payload().getAndAddLong(4 << 20, 1);
            assertEquals(Finding.STALE_WRITERS_ATTACHED, first.verify().finding());
            second.force();
            assertEquals(Finding.OK, first.verify().finding(), "force() records the payload of both writers");
            assertEquals(Finding.OK, second.verify().finding());
            first.payload().getAndAddLong(8, 1);
            PayloadComparison result = second.verify();
            assertEquals(Finding.STALE_WRITERS_ATTACHED, result.finding(), result.toString());
            assertEquals(2, result.writers());
            assertEquals(0, result.from());
        }
    }

    @Test
    void filesBeforeVersionFourHaveNoChecksumAndKeepTheirReservedBytesZero() throws IOException {
        for (int version = FIRST_FORMAT_VERSION; version < PAYLOAD_CHECKSUM_VERSION; version++) {
            Path file = SketchFiles.create(
                    dir.resolve("v" + version + ".sketch"),
                    SketchFiles.header(TestKinds.COUNT_MIN, 1 << 20).withFormatVersion(version));
            try (SketchRegion writer = SketchRegions.open(file, RegionMode.SHARED)) {
                writer.payload().getAndAddLong(64, 1);
                writer.force();
                PayloadComparison result = writer.verify();
                assertEquals(Finding.NO_CHECKSUM, result.finding());
                assertEquals(version, result.formatVersion());
            }
            byte[] page = Arrays.copyOf(Files.readAllBytes(file), HEADER_LENGTH);
            assertArrayEquals(
                    new byte[HEADER_LENGTH - CHECKSUM_OFFSET],
                    Arrays.copyOfRange(page, CHECKSUM_OFFSET, HEADER_LENGTH),
                    "version " + version);
            assertEquals(Finding.NO_CHECKSUM, verify(file).finding());
        }
    }

    @Test
    void anAnonymousRegionIsNotPersisted() throws IOException {
        SketchRegion region = SketchRegions.anonymous(header(1 << 16), RegionMode.SHARED);
        PayloadComparison result = region.verify();
        assertEquals(Finding.NOT_PERSISTED, result.finding());
        assertNull(result.file());
        region.close();
        assertThrows(IllegalStateException.class, region::verify);
    }

    /** The digests sit outside the header's CRC: recording them leaves the CRC as it was and the header valid. */
    @Test
    void recordingTheChecksumLeavesTheHeaderChecksAsTheyWere() throws IOException {
        Path file = newFile("crc.sketch", 2 << 20);
        byte[] created = Files.readAllBytes(file);
        try (SketchRegion writer = SketchRegions.open(file, RegionMode.SHARED)) {
            writer.payload().getAndAddLong(1 << 20, 7);
            writer.force();
        }
        byte[] closed = Files.readAllBytes(file);
        assertNotEquals(
                Arrays.toString(Arrays.copyOfRange(created, DIGESTS_OFFSET + 32, DIGESTS_OFFSET + 68)),
                Arrays.toString(Arrays.copyOfRange(closed, DIGESTS_OFFSET + 32, DIGESTS_OFFSET + 68)),
                "the digest of the changed chunk (16) was rewritten");
        assertArrayEquals(
                Arrays.copyOfRange(created, CRC_OFFSET, CRC_OFFSET + 4),
                Arrays.copyOfRange(closed, CRC_OFFSET, CRC_OFFSET + 4));
        byte[] resealed = closed.clone();
        HeaderSeal.rewriteChecksum(resealed);
        assertArrayEquals(closed, resealed, "the documented CRC, computed apart from the library, is the one stored");
        try (SketchRegion reader = SketchRegions.open(file, RegionMode.READ_ONLY)) {
            assertTrue(reader.wasCleanlyClosed());
            assertEquals(Finding.OK, reader.verify().finding());
        }
    }

    @Test
    void aWriterKilledWhileOpenLeavesTheChecksumStaleUntilTheNextCleanClose() throws IOException {
        Path file = newFile("killed.sketch", 1 << 20);
        try (ChildJvm writer = ChildJvm.start(dir, RegionWorker.class, "write-and-hold", file.toString(), "70000")) {
            assertEquals("written", writer.readLine());
            writer.kill();
        }
        PayloadComparison result = verify(file);
        assertEquals(Finding.STALE_WRITERS_ATTACHED, result.finding(), result.toString());
        assertEquals(1, result.writers(), "the dead writer stays registered");
        assertEquals(524_288, result.from());
        try (SketchRegion alone = SketchRegions.open(file, RegionMode.SHARED)) {
            assertFalse(alone.wasCleanlyClosed());
        }
        assertEquals(Finding.OK, verify(file).finding(), "the next writer alone closed it cleanly");
    }

    /**
     * Threads of the closing process that still write through the region until it is unmapped cannot
     * change the payload under the last writer's checksum: it is computed after the unmapping.
     */
    @Test
    void aCloseRacingWithWritesOfItsOwnProcessSealsWhatTheFileHolds() throws Exception {
        Path file = newFile("racing.sketch", 8 << 20);
        for (int round = 0; round < 5; round++) {
            SketchRegion region = SketchRegions.open(file, RegionMode.SHARED);
            CountDownLatch writing = new CountDownLatch(1);
            Thread writer = new Thread(() -> {
                SplittableRandom random = new SplittableRandom(17);
                long words = region.payload().byteSize() / 8;
                try {
                    for (long i = 0; ; i++) {
                        region.payload().getAndAddLong(8 * random.nextLong(words), 1);
                        if (i == 1_000) {
                            writing.countDown();
                        }
                    }
                } catch (IllegalStateException closed) {
                    // the region was closed under it, as documented
                }
            });
            writer.start();
            writing.await();
            region.close();
            writer.join();
            PayloadComparison result = verify(file);
            assertEquals(Finding.OK, result.finding(), "round " + round + ": " + result.toString());
        }
    }

    @Test
    void aLastWriterWhoseGenerationMovedRecordsNothing() throws IOException {
        Path file = newFile("moved.sketch", 1 << 20);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
                Arena arena = Arena.ofConfined()) {
            MemorySegment mapping = channel.map(FileChannel.MapMode.READ_WRITE, 0, Files.size(file), arena);
            AtomicSegment page = new AtomicSegment(mapping.asSlice(0, HEADER_LENGTH));
            MemorySegment payload = mapping.asSlice(HEADER_LENGTH);
            long generation = page.getLongAcquire(GENERATION_OFFSET);
            long stamp = page.getLongAcquire(DIGEST_STAMP_OFFSET);
            assertEquals(generation << 1 | 1, stamp, "the creator's close sealed the digests at its generation");
            payload.set(ValueLayout.JAVA_LONG, 0, 1);
            PayloadChecksum.writerAttached(page);
            PayloadChecksum.seal(page, payload, generation);
            assertEquals(stamp, page.getLongAcquire(DIGEST_STAMP_OFFSET), "a writer opened after that generation");
            assertEquals(Finding.STALE_CLOSED_UNCLEANLY, verify(file).finding());
            PayloadChecksum.seal(page, payload, generation + 1);
            assertEquals((generation + 1) << 1 | 1, page.getLongAcquire(DIGEST_STAMP_OFFSET), "sealed at the new one");
            assertEquals(0, page.getLongAcquire(DIGEST_LOCK_OFFSET), "the digest lock is free again");
        }
        assertEquals(Finding.OK, verify(file).finding());
    }

    @Test
    void aChecksumLineNoWriterLeavesIsRefusedOnOpen() throws IOException {
        Path file = newFile("line.sketch", 1 << 17);
        byte[] valid = Files.readAllBytes(file);
        Object[][] damages = {
            {GENERATION_OFFSET + 7, (byte) 0x80, "'writer generation' (offset 1984)"},
            {CHECKSUM_RESERVED_OFFSET + 5, (byte) 1, "'reserved' (offset 2008)"},
            {
                DIGESTS_OFFSET + 4 * 2,
                (byte) 1,
                "'chunk digest 2' (offset 2056) is 0x1, expected 0 (the payload has 2" + " chunks)"
            },
        };
        for (Object[] damage : damages) {
            byte[] bytes = valid.clone();
            bytes[(int) damage[0]] ^= (byte) damage[1];
            Path damaged = SketchFiles.write(dir.resolve("damaged.sketch"), bytes);
            FileFault e = assertFault(CORRUPT, () -> SketchRegions.open(damaged, RegionMode.READ_ONLY));
            assertTrue(
                    e.getMessage().startsWith("sketch file " + damaged + ": header field " + damage[2]),
                    e.getMessage());
        }
    }

    /**
     * Writers of three processes open, change and close one file over and over while this JVM verifies it:
     * the race between a last writer sealing the checksum and a writer opening never shows as damage, and once
     * they are all gone the file is ok.
     */
    @Test
    void writersComingAndGoingNeverLookLikeDamage() throws Exception {
        Path file = newFile("churn.sketch", 8 << 20);
        ChildJvm[] children = new ChildJvm[3];
        try {
            for (int i = 0; i < children.length; i++) {
                children[i] = ChildJvm.start(
                        dir, RegionWorker.class, "churn-write", file.toString(), "150", Integer.toString(i));
                assertEquals("ready", children[i].readLine());
            }
            for (ChildJvm child : children) {
                child.go();
            }
            int[] seen = new int[Finding.values().length];
            try (SketchRegion reader = SketchRegions.open(file, RegionMode.READ_ONLY)) {
                while (Arrays.stream(children).anyMatch(ChildJvm::isAlive)) {
                    PayloadComparison result = reader.verify();
                    assertNotEquals(Finding.CORRUPT, result.finding(), result.toString());
                    seen[result.finding().ordinal()]++;
                }
            }
            for (ChildJvm child : children) {
                assertEquals("done", child.readLine());
            }
            System.out.println("verifications while writers came and went: " + Arrays.toString(seen));
        } finally {
            for (ChildJvm child : children) {
                if (child != null) {
                    child.close();
                }
            }
        }
        assertEquals(Finding.OK, verify(file).finding());
    }
}
