package io.mapsketch.memory;

import static io.mapsketch.memory.Faults.assertFault;
import static io.mapsketch.memory.FileFault.Reason.LOCKED;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Creating, opening, writing, closing and locking regions within one process. */
class SketchRegionTest {

    @TempDir
    Path dir;

    private Path newFile(long payloadLength) throws IOException {
        return SketchFiles.create(dir.resolve("region.sketch"), SketchFiles.header(TestKinds.COUNT_MIN, payloadLength));
    }

    @Test
    void writesAndCountersPersistAcrossReopen() throws IOException {
        Path file = newFile(1 << 16);
        try (SketchRegion region = SketchRegions.open(file, RegionMode.EXCLUSIVE)) {
            region.payload().putLong(8, 0xCAFEBABEL);
            region.payload().getAndAddInt(1 << 15, 5);
            region.addItems(3);
            assertEquals(3, region.itemsAdded());
            region.addWeight(10);
            assertEquals(10, region.totalWeight());
            region.force();
        }
        try (SketchRegion region = SketchRegions.open(file, RegionMode.READ_ONLY)) {
            assertEquals(0xCAFEBABEL, region.payload().getLongAcquire(8));
            assertEquals(5, region.payload().getIntAcquire(1 << 15));
            assertEquals(3, region.itemsAdded());
            assertEquals(10, region.totalWeight());
            assertTrue(region.wasCleanlyClosed());
        }
    }

    @Test
    void createCanFillThePayloadWithTheKindsEmptyValue() throws IOException {
        Path file = dir.resolve("filled.sketch");
        long length = (1 << 20) + 4096 + 64;
        try (SketchRegion region = SketchRegions.create(
                file, SketchFiles.header(TestKinds.MINHASH, length), (byte) -1, RegionMode.EXCLUSIVE)) {
            MemorySegment payload = region.payload().segment();
            assertEquals(length, payload.byteSize());
            for (long i = 0; i < length; i += 8) {
                assertEquals(-1L, region.payload().getLong(i), "payload word at " + i);
            }
        }
        assertEquals(4096 + length, Files.size(file));
    }

    @Test
    void payloadIsPageAlignedInTheMapping() throws IOException {
        try (SketchRegion region = SketchRegions.open(newFile(4096), RegionMode.SHARED)) {
            assertEquals(0, region.payload().segment().address() % 4096);
        }
    }

    @Test
    void readOnlyRegionsRefuseWrites() throws IOException {
        try (SketchRegion region = SketchRegions.open(newFile(4096), RegionMode.READ_ONLY)) {
            assertThrows(IllegalArgumentException.class, () -> region.payload().putLong(0, 1));
            assertThrows(IllegalArgumentException.class, () -> region.payload().getAndOrLong(0, 1));
            assertThrows(IllegalArgumentException.class, () -> region.payload().compareAndSetInt(0, 0, 1));
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> region.addItems(1));
            assertTrue(e.getMessage().contains("READ_ONLY"), e.getMessage());
            assertEquals(0, region.payload().getLong(0));
        }
    }

    @Test
    void useAfterCloseFailsCleanly() throws IOException {
        SketchRegion region = SketchRegions.open(newFile(4096), RegionMode.SHARED);
        AtomicSegment payload = region.payload();
        region.close();
        region.close();
        assertTrue(region.isClosed());
        assertThrows(IllegalStateException.class, () -> payload.getLong(0));
        assertThrows(IllegalStateException.class, () -> payload.getAndAddLong(0, 1));
        IllegalStateException e = assertThrows(IllegalStateException.class, region::itemsAdded);
        assertTrue(e.getMessage().contains("region.sketch") && e.getMessage().contains("closed"), e.getMessage());
        assertThrows(IllegalStateException.class, region::force);
    }

    @Test
    void anonymousRegionUseAfterCloseFailsCleanly() throws IOException {
        SketchRegion region = SketchRegions.anonymous(SketchFiles.header(TestKinds.BLOOM, 64), RegionMode.EXCLUSIVE);
        region.payload().putLong(0, 1);
        region.close();
        assertThrows(IllegalStateException.class, () -> region.payload().getLong(0));
        assertThrows(
                IllegalArgumentException.class,
                () -> SketchRegions.anonymous(SketchFiles.header(TestKinds.BLOOM, 64), RegionMode.READ_ONLY));
    }

    @Test
    void misalignedAndOutOfRangeOffsetsAreRefused() throws IOException {
        try (SketchRegion region = SketchRegions.open(newFile(4096), RegionMode.SHARED)) {
            AtomicSegment payload = region.payload();
            IllegalArgumentException e =
                    assertThrows(IllegalArgumentException.class, () -> payload.getAndAddLong(4, 1));
            assertTrue(
                    e.getMessage().contains("offset = 4") && e.getMessage().contains("multiple of 8"), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> payload.compareAndSetInt(2, 0, 1));
            assertThrows(IndexOutOfBoundsException.class, () -> payload.getLong(4096));
            assertThrows(IndexOutOfBoundsException.class, () -> payload.getAndAddInt(-4, 1));
            assertEquals(0, payload.getAndAddInt(4, 1), "32-bit words need only 4-byte alignment");
        }
    }

    @Test
    void atomicOperationsReturnPreviousValues() throws IOException {
        try (SketchRegion region =
                SketchRegions.anonymous(SketchFiles.header(TestKinds.BLOOM, 64), RegionMode.SHARED)) {
            AtomicSegment words = region.payload();
            assertEquals(0, words.getAndOrLong(0, 0b101));
            assertEquals(0b101, words.getAndOrLong(0, 0b010));
            assertEquals(0b111, words.getLong(0));
            assertFalse(words.compareAndSetLong(0, 0, 9));
            assertTrue(words.compareAndSetLong(0, 0b111, 9));
            assertEquals(9, words.getAndAddLong(0, -10));
            assertEquals(-1, words.getLongAcquire(0), "adds wrap; saturation is the caller's business");
            words.putIntRelease(8, Integer.MAX_VALUE);
            assertEquals(Integer.MAX_VALUE, words.getAndAddInt(8, 1));
            assertEquals(Integer.MIN_VALUE, words.getInt(8));
            assertEquals(0, words.getAndClearInt(12, 1));
        }
    }

    @Test
    void valuesAreLittleEndianInTheFile() throws IOException {
        Path file = newFile(64);
        try (SketchRegion region = SketchRegions.open(file, RegionMode.EXCLUSIVE)) {
            region.payload().putLong(0, 0x0102030405060708L);
        }
        byte[] bytes = Files.readAllBytes(file);
        assertArrayEquals(
                new byte[] {8, 7, 6, 5, 4, 3, 2, 1},
                Arrays.copyOfRange(bytes, SketchFileLayout.HEADER_LENGTH, SketchFileLayout.HEADER_LENGTH + 8));
    }

    @Test
    void createRefusesToOverwriteUnlessAsked() throws IOException {
        Path file = newFile(64);
        try (SketchRegion region = SketchRegions.open(file, RegionMode.EXCLUSIVE)) {
            region.payload().putLong(0, 77);
        }
        SketchHeader other = SketchFiles.header(TestKinds.HYPERLOGLOG, 128);
        FileAlreadyExistsException e = assertThrows(
                FileAlreadyExistsException.class, () -> SketchRegions.create(file, other, RegionMode.SHARED));
        assertTrue(e.getMessage().contains("OVERWRITE_EXISTING"), e.getMessage());
        try (SketchRegion kept = SketchRegions.open(file, RegionMode.READ_ONLY)) {
            assertEquals(77, kept.payload().getLong(0));
        }
        try (SketchRegion replaced =
                SketchRegions.create(file, other, RegionMode.SHARED, CreateFlag.OVERWRITE_EXISTING)) {
            assertEquals(TestKinds.HYPERLOGLOG, replaced.header().kindId());
            assertEquals(0, replaced.payload().getLong(0));
        }
        try (var listing = Files.list(dir)) {
            assertEquals(1, listing.count(), "no temporary file is left behind");
        }
    }

    @Test
    void createRefusesReadOnlyMode() throws IOException {
        assertThrows(
                IllegalArgumentException.class,
                () -> SketchRegions.create(
                        dir.resolve("x.sketch"), SketchFiles.header(TestKinds.BLOOM, 64), RegionMode.READ_ONLY));
        assertFalse(Files.exists(dir.resolve("x.sketch")));
    }

    @Test
    void writersInOneProcessFollowTheLockRules() throws IOException {
        Path file = newFile(64);
        try (SketchRegion shared = SketchRegions.open(file, RegionMode.SHARED);
                SketchRegion second = SketchRegions.open(file, RegionMode.SHARED);
                SketchRegion reader = SketchRegions.open(file, RegionMode.READ_ONLY)) {
            assertEquals(RegionMode.SHARED, second.mode());
            assertEquals(RegionMode.READ_ONLY, reader.mode());
            FileFault e = assertFault(LOCKED, () -> SketchRegions.open(file, RegionMode.EXCLUSIVE));
            assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
            shared.payload().getAndAddLong(0, 1);
            assertEquals(1, reader.payload().getLongAcquire(0), "regions of one file share memory");
        }
        try (SketchRegion exclusive = SketchRegions.open(file, RegionMode.EXCLUSIVE)) {
            assertFault(LOCKED, () -> SketchRegions.open(file, RegionMode.SHARED));
            assertFault(LOCKED, () -> SketchRegions.open(file, RegionMode.EXCLUSIVE));
            SketchRegions.open(file, RegionMode.READ_ONLY).close();
            assertEquals(RegionMode.EXCLUSIVE, exclusive.mode());
        }
    }

    /**
     * The open check runs before another writer can register and knows whether its opener is the only
     * writer; a check that refuses the file leaves it as it was, with no writer registered.
     */
    @Test
    void theOpenCheckKnowsASoleWriterAndItsRefusalDetachesTheOpener() throws IOException {
        Path file = newFile(64);
        List<String> seen = new ArrayList<>();
        SketchRegions.OpenCheck record = (region, sole) -> seen.add(region.mode() + " " + sole);
        try (SketchRegion first = SketchRegions.open(file, RegionMode.SHARED, SketchRegions.KindCheck.ANY, record);
                SketchRegion second = SketchRegions.open(file, RegionMode.SHARED, SketchRegions.KindCheck.ANY, record);
                SketchRegion reader =
                        SketchRegions.open(file, RegionMode.READ_ONLY, SketchRegions.KindCheck.ANY, record)) {
            assertEquals(2, reader.attachedWriters());
            assertEquals(first.attachedWriters(), second.attachedWriters());
        }
        SketchRegions.open(file, RegionMode.EXCLUSIVE, SketchRegions.KindCheck.ANY, record)
                .close();
        assertEquals(List.of("SHARED true", "SHARED false", "READ_ONLY false", "EXCLUSIVE true"), seen);

        FileFault refusal = new FileFault(FileFault.Reason.CORRUPT, file, "refused by the check");
        SketchRegions.OpenCheck refuse = (region, sole) -> {
            throw refusal;
        };
        assertEquals(
                refusal,
                assertThrows(
                        FileFault.class,
                        () -> SketchRegions.open(file, RegionMode.SHARED, SketchRegions.KindCheck.ANY, refuse)));
        try (SketchRegion exclusive = SketchRegions.open(file, RegionMode.EXCLUSIVE)) {
            assertEquals(1, exclusive.attachedWriters(), "the refused opener left no writer registered");
            assertTrue(exclusive.wasCleanlyClosed());
        }
    }

    @Test
    void theSummaryLineExistsFromFormatVersionTwo() throws IOException {
        Path file = newFile(64);
        try (SketchRegion first = SketchRegions.open(file, RegionMode.SHARED)) {
            IllegalStateException e = assertThrows(IllegalStateException.class, first::summaryLine);
            assertTrue(e.getMessage().endsWith("is of format version 1, which has no summary line"), e.getMessage());
        }
        Path second = SketchFiles.create(
                dir.resolve("v2.sketch"),
                SketchFiles.header(TestKinds.HYPERLOGLOG, 64).withFormatVersion(SketchFileLayout.SUMMARY_LINE_VERSION));
        try (SketchRegion writer = SketchRegions.open(second, RegionMode.SHARED);
                SketchRegion reader = SketchRegions.open(second, RegionMode.READ_ONLY)) {
            writer.summaryLine().getAndAddLong(8, 5);
            assertEquals(5, reader.summaryLine().getLongAcquire(8), "the line is shared like the payload");
            assertEquals(64, reader.summaryLine().byteSize());
        }
        try (SketchRegion reopened = SketchRegions.open(second, RegionMode.READ_ONLY)) {
            assertEquals(5, reopened.summaryLine().getLongAcquire(8), "and persists; it is outside the checksum");
        }
    }

    @Test
    void invalidHeaderArgumentsNameTheParameter() {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> SketchFiles.header(TestKinds.BLOOM, -1));
        assertTrue(e.getMessage().startsWith("payloadLength = -1"), e.getMessage());
        e = assertThrows(
                IllegalArgumentException.class,
                () -> SketchHeader.forNewSketch(TestKinds.BLOOM, HashScheme.XXH3_64, 0, new long[17], 0));
        assertTrue(e.getMessage().startsWith("parameters.length = 17"), e.getMessage());
        e = assertThrows(
                IllegalArgumentException.class,
                () -> SketchFiles.header(TestKinds.BLOOM, 0).withFormatVersion(SketchFileLayout.FORMAT_VERSION + 1));
        assertEquals(
                "formatVersion = " + (SketchFileLayout.FORMAT_VERSION + 1) + ", must be in [1, "
                        + SketchFileLayout.FORMAT_VERSION + "]",
                e.getMessage());
    }
}
