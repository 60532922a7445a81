package io.mapsketch.memory;

import static io.mapsketch.memory.Faults.assertFault;
import static io.mapsketch.memory.FileFault.Reason.CORRUPT;
import static io.mapsketch.memory.FileFault.Reason.INCOMPATIBLE;
import static io.mapsketch.memory.SketchFileLayout.*;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A damaged or foreign file is a typed exception naming the file and the fault, never a mapping. */
class HeaderCorruptionTest {

    @TempDir
    Path dir;

    private Path damaged;
    private byte[] valid;

    @BeforeEach
    void writeValidFile() throws IOException {
        Path file = SketchFiles.create(dir.resolve("valid.sketch"), SketchFiles.header(TestKinds.BLOOM, 8192));
        valid = Files.readAllBytes(file);
        damaged = dir.resolve("damaged.sketch");
    }

    /**
     * The live counters hold any value a writer can produce, so a flip there cannot be told from an
     * update (except a flip into a negative items or weight count), nor can a flip of the clean-close bit.
     */
    private static boolean isLiveValue(int offset, int mask) {
        boolean counters = offset >= ITEMS_OFFSET && offset < WRITERS_OFFSET + 4;
        boolean cleanBit = offset == FLAGS_OFFSET && mask == FLAG_CLEAN_CLOSE;
        return counters || cleanBit;
    }

    @Test
    void everySingleFlippedByteOfTheHeaderIsDetected() {
        qt().withFixedSeed(4096L)
                .withExamples(3000)
                .forAll(integers().between(0, HEADER_LENGTH - 1), integers().between(1, 255))
                .assuming((offset, mask) -> !isLiveValue(offset, mask))
                .checkAssert(this::assertFlipDetected);
    }

    @Test
    void flipsAtEveryOffsetAreDetected() {
        for (int offset = 0; offset < HEADER_LENGTH; offset++) {
            for (int mask : new int[] {0x01, 0x80}) {
                if (!isLiveValue(offset, mask)) {
                    assertFlipDetected(offset, mask);
                }
            }
        }
    }

    /**
     * From format version 2 the summary line (bytes 320..383) is live like the live line: the header's
     * checksum leaves it out and the sketch kind judges it. From version 4 the checksum line and the chunk
     * digests (bytes 1984..4095) are left out too, and judged by opening and by verifying
     * ({@link #assertChecksumAreaFlipJudged}); from version 5 the slot directory and the counter slots (bytes
     * 384..1983), judged on open. Every other byte stays covered; in a version 1 file
     * ({@link #flipsAtEveryOffsetAreDetected}) the summary line's bytes are reserved and covered too.
     */
    @Test
    void headersFromVersionTwoLeaveOnlyTheirLiveLinesToTheKind() throws IOException {
        for (int version = SUMMARY_LINE_VERSION; version <= FORMAT_VERSION; version++) {
            Path file = SketchFiles.create(
                    dir.resolve("v" + version + ".sketch"),
                    SketchFiles.header(TestKinds.HYPERLOGLOG, 1024).withFormatVersion(version));
            valid = Files.readAllBytes(file);
            for (int offset = 0; offset < HEADER_LENGTH; offset++) {
                boolean summary = offset >= SUMMARY_OFFSET && offset < SUMMARY_OFFSET + CACHE_LINE;
                if (version >= PAYLOAD_CHECKSUM_VERSION && offset >= CHECKSUM_OFFSET) {
                    for (int mask : new int[] {0x01, 0x80}) {
                        assertChecksumAreaFlipJudged(offset, mask);
                    }
                } else if (summary) {
                    byte[] bytes = valid.clone();
                    bytes[offset] ^= (byte) 0x80;
                    SketchFiles.write(damaged, bytes);
                    try (SketchRegion region = SketchRegions.open(damaged, RegionMode.READ_ONLY)) {
                        assertEquals(version, region.header().formatVersion());
                        assertEquals(
                                (byte) 0x80, region.summaryLine().segment().get(JAVA_BYTE, offset - SUMMARY_OFFSET));
                    }
                } else if (version >= COUNTER_SLOTS_VERSION && isSlotValue(offset, valid)) {
                    byte[] bytes = valid.clone();
                    bytes[offset] ^= (byte) 0x80;
                    SketchFiles.write(damaged, bytes);
                    SketchRegions.open(damaged, RegionMode.READ_ONLY).close();
                } else if (!isLiveValue(offset, 0x80)) {
                    assertFlipDetected(offset, 0x80);
                }
            }
        }
    }

    /**
     * A counter slot's owner word holds any process token (a dead owner is reused), and a slot in use any
     * count below 2^57, so a flip of one of those opens (a flip of bit 63 of a count does not); every other
     * byte of the slot directory and the slots is judged on open ({@link CounterSlots#check}).
     */
    private static boolean isSlotValue(int offset, byte[] file) {
        if (offset < COUNTER_SLOTS_OFFSET || offset >= CHECKSUM_OFFSET) {
            return false;
        }
        int slot = (offset - COUNTER_SLOTS_OFFSET) / CACHE_LINE;
        int inLine = (offset - COUNTER_SLOTS_OFFSET) % CACHE_LINE;
        boolean inUse = slot < MemorySegment.ofArray(file).get(HeaderCodec.INT, SLOTS_IN_USE_OFFSET);
        boolean lowCountByte = inLine >= SLOT_ITEMS && inLine < SLOT_RESERVED && inLine % 8 != 7;
        return inLine < SLOT_OWNER + 8 || (inUse && lowCountByte);
    }

    /**
     * A flip in the checksum area of a version 4 header (a one-chunk payload here) is refused on open, or, in a
     * digest in use, reported by verify as damage to that chunk; only the writer generation, the digest stamp
     * and the digest lock hold values a writer may leave, like the live counters: a flip there leaves the
     * payload's verdict to its digests.
     */
    private void assertChecksumAreaFlipJudged(int offset, int mask) throws IOException {
        byte[] bytes = valid.clone();
        bytes[offset] ^= (byte) mask;
        SketchFiles.write(damaged, bytes);
        boolean liveWord = offset < CHECKSUM_RESERVED_OFFSET;
        boolean usedDigest = offset >= DIGESTS_OFFSET && offset < DIGESTS_OFFSET + 4;
        SketchRegion region;
        try {
            region = SketchRegions.open(damaged, RegionMode.READ_ONLY);
        } catch (FileFault refused) {
            assertTrue(
                    !usedDigest && refused.getMessage().contains(damaged.toString()),
                    "offset " + offset + ": " + refused.getMessage());
            return;
        }
        try (region) {
            PayloadComparison result = region.verify();
            String flip = "flip of mask " + mask + " at offset " + offset + ": " + result;
            assertTrue(liveWord || usedDigest, flip);
            assertEquals(
                    usedDigest ? PayloadComparison.Finding.CORRUPT : PayloadComparison.Finding.OK,
                    result.finding(),
                    flip);
        }
    }

    /** A negative writer count is not among them: the next sole writer repairs it (WriterCountRepairTest). */
    @Test
    void negativeLiveCountersAreDetected() throws IOException {
        for (int offset : new int[] {ITEMS_OFFSET + 7, WEIGHT_OFFSET + 7}) {
            assertFlipDetected(offset, 0x80);
        }
    }

    private void assertFlipDetected(int offset, int mask) {
        byte[] bytes = valid.clone();
        bytes[offset] ^= (byte) mask;
        try {
            SketchFiles.write(damaged, bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        FileFault thrown = assertThrows(
                FileFault.class,
                () -> SketchRegions.open(damaged, RegionMode.READ_ONLY).close(),
                "flip of mask " + mask + " at offset " + offset);
        assertTrue(thrown.getMessage().contains(damaged.toString()), thrown.getMessage());
    }

    @Test
    void zeroLengthFile() throws IOException {
        SketchFiles.write(damaged, new byte[0]);
        assertCorrupt("the file is empty");
    }

    @Test
    void fileShorterThanTheHeader() throws IOException {
        SketchFiles.write(damaged, Arrays.copyOf(valid, 1000));
        assertCorrupt("file length is 1000 bytes, expected at least 4096");
    }

    @Test
    void truncatedPayload() throws IOException {
        SketchFiles.write(damaged, Arrays.copyOf(valid, valid.length - 64));
        assertCorrupt("'payload length' (offset 40) is 8192, expected 8128");
    }

    @Test
    void extendedFile() throws IOException {
        SketchFiles.write(damaged, Arrays.copyOf(valid, valid.length + 4096));
        assertCorrupt("'payload length' (offset 40) is 8192, expected 12288");
    }

    @Test
    void wrongMagic() throws IOException {
        byte[] bytes = valid.clone();
        System.arraycopy("PNG\r\n\u001a\n\0".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1), 0, bytes, 0, 8);
        SketchFiles.write(damaged, bytes);
        assertCorrupt("'magic' (offset 0)");
        assertCorrupt("not a mapsketch file");
    }

    @Test
    void futureVersionIsIncompatible() throws IOException {
        byte[] bytes = valid.clone();
        SketchFiles.putInt(bytes, VERSION_OFFSET, FORMAT_VERSION + 1);
        SketchFiles.rewriteChecksum(bytes);
        SketchFiles.write(damaged, bytes);
        FileFault e = assertFault(INCOMPATIBLE, () -> SketchRegions.open(damaged, RegionMode.READ_ONLY));
        assertTrue(
                e.getMessage()
                        .contains("format version' (offset 8) is " + (FORMAT_VERSION + 1) + ", expected at most "
                                + FORMAT_VERSION),
                e.getMessage());
    }

    /**
     * The kind id is the opener's to judge (the engine knows the kinds): its check sees the id once the
     * header's checksum holds, and its refusal leaves a writer's file unregistered and unlocked.
     */
    @Test
    void theOpenersKindCheckJudgesTheKindIdBeforeAnythingIsMapped() throws IOException {
        byte[] bytes = valid.clone();
        SketchFiles.putInt(bytes, KIND_OFFSET, 999);
        SketchFiles.rewriteChecksum(bytes);
        SketchFiles.write(damaged, bytes);
        List<Integer> seen = new ArrayList<>();
        IOException refusal = new IOException("kind 999 refused");
        SketchRegions.KindCheck refuse = (file, kind) -> {
            assertEquals(damaged, file);
            seen.add(kind);
            throw refusal;
        };
        assertSame(
                refusal, assertThrows(IOException.class, () -> SketchRegions.open(damaged, RegionMode.SHARED, refuse)));
        assertEquals(List.of(999), seen);
        assertArrayEquals(bytes, Files.readAllBytes(damaged), "a refused writer registers nothing");
        try (SketchRegion region = SketchRegions.open(damaged, RegionMode.EXCLUSIVE)) {
            assertEquals(999, region.header().kindId(), "any kind id opens without a check, and no lock is left");
        }
    }

    @Test
    void unknownHashSchemeIsIncompatible() throws IOException {
        byte[] bytes = valid.clone();
        SketchFiles.putInt(bytes, HASH_SCHEME_OFFSET, 77);
        SketchFiles.rewriteChecksum(bytes);
        SketchFiles.write(damaged, bytes);
        assertFault(INCOMPATIBLE, () -> SketchRegions.open(damaged, RegionMode.READ_ONLY));
    }

    @Test
    void missingFile() {
        assertThrows(NoSuchFileException.class, () -> SketchRegions.open(dir.resolve("absent"), RegionMode.READ_ONLY));
    }

    @Test
    void damagedHeaderNamesTheChecksum() throws IOException {
        byte[] bytes = valid.clone();
        bytes[PARAMETERS_OFFSET] ^= 1;
        SketchFiles.write(damaged, bytes);
        assertCorrupt("'header CRC32C' (offset 56)");
    }

    private void assertCorrupt(String expectedFragment) {
        FileFault e = assertFault(CORRUPT, () -> SketchRegions.open(damaged, RegionMode.READ_ONLY));
        assertTrue(e.getMessage().startsWith("sketch file " + damaged + ": "), e.getMessage());
        assertTrue(e.getMessage().contains(expectedFragment), e.getMessage());
    }
}
