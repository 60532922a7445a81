package io.mapsketch.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mapsketch.CorruptSketchFileException;
import io.mapsketch.CreateOption;
import io.mapsketch.IncompatibleSketchFileException;
import io.mapsketch.OpenMode;
import io.mapsketch.PayloadVerification;
import io.mapsketch.RegionLockTimeoutException;
import io.mapsketch.SketchFileException;
import io.mapsketch.SketchFileLockedException;
import io.mapsketch.SketchFileReplacedException;
import io.mapsketch.SketchFileStorageException;
import io.mapsketch.SketchKind;
import io.mapsketch.memory.FileFault;
import io.mapsketch.memory.HashScheme;
import io.mapsketch.memory.PayloadComparison;
import io.mapsketch.memory.RegionLock;
import io.mapsketch.memory.RegionMode;
import io.mapsketch.memory.SketchFileLayout;
import io.mapsketch.memory.SketchHeader;
import io.mapsketch.memory.SketchRegion;
import io.mapsketch.memory.SketchRegions;
import io.mapsketch.testing.HeaderSeal;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The engine's door to the memory module reports every file fault as the API's exception of its reason,
 * with the memory module's message, file and stack trace, and judges the header's kind, which the memory
 * module leaves to it.
 */
class RegionsTest {

    private static final Map<FileFault.Reason, Class<? extends SketchFileException>> REPORTED = Map.of(
            FileFault.Reason.CORRUPT, CorruptSketchFileException.class,
            FileFault.Reason.INCOMPATIBLE, IncompatibleSketchFileException.class,
            FileFault.Reason.LOCKED, SketchFileLockedException.class,
            FileFault.Reason.REPLACED, SketchFileReplacedException.class,
            FileFault.Reason.STORAGE, SketchFileStorageException.class);

    @TempDir
    Path dir;

    private static SketchHeader header(SketchKind kind) {
        return SketchHeader.forNewSketch(kind.id(), HashScheme.XXH3_64, 3, new long[] {1, 2}, 4096)
                .withFormatVersion(SketchFileLayout.FORMAT_VERSION);
    }

    private Path file(SketchKind kind) throws IOException {
        Path file = dir.resolve(kind + ".sketch");
        Regions.create(file, header(kind), (byte) 0, OpenMode.EXCLUSIVE).close();
        return file;
    }

    @Test
    void everyReasonIsReportedAsItsApiExceptionWithTheSameMessageFileAndTrace() {
        Path file = dir.resolve("x.sketch");
        for (FileFault.Reason reason : FileFault.Reason.values()) {
            FileFault fault = new FileFault(reason, file, "what is wrong");
            fault.addSuppressed(new FileFault(FileFault.Reason.CORRUPT, file, "also"));
            SketchFileException reported = Regions.reported(fault);
            assertEquals(REPORTED.get(reason), reported.getClass(), reason.name());
            assertEquals("sketch file " + file + ": what is wrong", reported.getMessage());
            assertEquals(fault.getMessage(), reported.getMessage());
            assertSame(file, reported.file());
            assertArrayEquals(fault.getStackTrace(), reported.getStackTrace());
            assertInstanceOf(CorruptSketchFileException.class, reported.getSuppressed()[0]);
        }
        assertEquals(
                "anonymous sketch region: gone",
                Regions.reported(new FileFault(FileFault.Reason.REPLACED, null, "gone"))
                        .getMessage());
    }

    @Test
    void theKindIsJudgedByTheEngineNamingTheKinds() throws IOException {
        Path bloom = file(SketchKind.BLOOM);
        IncompatibleSketchFileException wrong = assertThrows(
                IncompatibleSketchFileException.class,
                () -> Regions.open(bloom, OpenMode.SHARED, SketchKind.HYPERLOGLOG, null));
        assertTrue(
                wrong.getMessage().contains("header field 'sketch kind' (offset 16) is BLOOM, expected HYPERLOGLOG"),
                wrong.getMessage());
        assertEquals(bloom, wrong.file());
        try (SketchRegion any = Regions.open(bloom, OpenMode.READ_ONLY, null, null)) {
            assertEquals(SketchKind.BLOOM, Regions.kind(any.header()));
        }

        Path unknown = dir.resolve("unknown.sketch");
        byte[] bytes = Files.readAllBytes(bloom);
        MemorySegment.ofArray(bytes)
                .set(
                        ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN),
                        SketchFileLayout.KIND_OFFSET,
                        999);
        HeaderSeal.rewriteChecksum(bytes);
        Files.write(unknown, bytes);
        IncompatibleSketchFileException e = assertThrows(
                IncompatibleSketchFileException.class, () -> Regions.open(unknown, OpenMode.READ_ONLY, null, null));
        assertTrue(
                e.getMessage().contains("'sketch kind' (offset 16) is 999, which this build does not know"),
                e.getMessage());
    }

    @Test
    void faultsOfOpeningCreatingForcingAndClosingAreTheApisExceptions() throws IOException {
        Path junk = dir.resolve("junk.sketch");
        Files.write(junk, new byte[8192]);
        CorruptSketchFileException corrupt = assertThrows(
                CorruptSketchFileException.class, () -> Regions.open(junk, OpenMode.READ_ONLY, null, null));
        assertTrue(
                corrupt.getMessage().startsWith("sketch file " + junk + ": header field 'magic' (offset 0)"),
                corrupt.getMessage());

        Path file = file(SketchKind.COUNT_MIN);
        try (SketchRegion writer = Regions.open(file, OpenMode.SHARED, SketchKind.COUNT_MIN, null)) {
            assertThrows(
                    SketchFileLockedException.class,
                    () -> Regions.open(file, OpenMode.EXCLUSIVE, SketchKind.COUNT_MIN, null));
            SketchFileLockedException inUse = assertThrows(
                    SketchFileLockedException.class,
                    () -> Regions.create(
                            file,
                            header(SketchKind.COUNT_MIN),
                            (byte) 0,
                            OpenMode.SHARED,
                            CreateOption.OVERWRITE_EXISTING));
            assertTrue(inUse.getMessage().contains("CreateOption.REPLACE_IN_USE"), inUse.getMessage());
            assertEquals(OpenMode.SHARED, Regions.openMode(writer));
        }

        SketchRegion writer = Regions.open(file, OpenMode.SHARED, SketchKind.COUNT_MIN, null);
        Files.delete(file);
        UncheckedIOException force = assertThrows(UncheckedIOException.class, () -> Regions.force(writer));
        SketchFileReplacedException cause = assertInstanceOf(SketchFileReplacedException.class, force.getCause());
        assertEquals(cause.toString(), force.getMessage());
        assertTrue(cause.getMessage().contains("no file is at this path any more"), cause.getMessage());
        assertThrows(SketchFileReplacedException.class, () -> Regions.close(writer));
        assertTrue(writer.isClosed());
    }

    @Test
    void aLockHeldPastItsTimeoutIsTheApisTimeout() throws IOException {
        try (SketchRegion region = Regions.anonymous(header(SketchKind.TOP_K), OpenMode.SHARED)) {
            region.payload().putLongRelease(0, RegionLock.currentProcessToken());
            RegionLock lock = new RegionLock(region.payload(), 0, Duration.ofMillis(20));
            RegionLockTimeoutException timeout =
                    assertThrows(RegionLockTimeoutException.class, () -> Regions.lock(lock));
            assertEquals(
                    "a lock in the sketch's mapped region is still held by process "
                            + ProcessHandle.current().pid() + " after PT0.02S; the holder is alive but not releasing it"
                            + " (stopped or stuck)",
                    timeout.getMessage());
            region.payload().putLongRelease(0, 0);
            assertFalse(Regions.lock(lock), "a free lock is taken without repair");
        }
    }

    @Test
    void everyFindingIsTheStateOfTheSameName() {
        Path file = dir.resolve("v.sketch");
        for (PayloadComparison.Finding finding : PayloadComparison.Finding.values()) {
            PayloadVerification verification =
                    Regions.verification(new PayloadComparison(finding, file, 64, 128, 4, 2));
            assertEquals(finding.name(), verification.state().name());
            assertEquals(new PayloadVerification(verification.state(), file, 64, 128, 4, 2), verification);
        }
        assertEquals(PayloadComparison.Finding.values().length, PayloadVerification.State.values().length);
    }

    @Test
    void modesAndOptionsMeanTheSameToTheMemoryModule() throws IOException {
        for (OpenMode mode : OpenMode.values()) {
            assertEquals(mode.name(), Regions.regionMode(mode).name());
            assertEquals(mode.isWritable(), Regions.regionMode(mode).isWritable());
        }
        assertEquals(RegionMode.values().length, OpenMode.values().length);
        Path personal = dir.resolve("personal.sketch");
        Regions.create(personal, header(SketchKind.BLOOM), (byte) 0, OpenMode.EXCLUSIVE, CreateOption.OWNER_ONLY)
                .close();
        if (Files.getFileStore(personal).supportsFileAttributeView("posix")) {
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(personal)));
        }
        Regions.create(
                        personal,
                        header(SketchKind.BLOOM),
                        (byte) 0,
                        OpenMode.EXCLUSIVE,
                        CreateOption.OVERWRITE_EXISTING)
                .close();
        try (SketchRegion reopened = SketchRegions.open(personal, RegionMode.READ_ONLY)) {
            assertEquals(SketchKind.BLOOM.id(), reopened.header().kindId());
        }
    }
}
