package io.mapsketch.internal;

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
import io.mapsketch.memory.CreateFlag;
import io.mapsketch.memory.FileFault;
import io.mapsketch.memory.LockTimeoutFault;
import io.mapsketch.memory.PayloadComparison;
import io.mapsketch.memory.RegionLock;
import io.mapsketch.memory.RegionMode;
import io.mapsketch.memory.SketchFileLayout;
import io.mapsketch.memory.SketchHeader;
import io.mapsketch.memory.SketchImages;
import io.mapsketch.memory.SketchRegion;
import io.mapsketch.memory.SketchRegions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * The engine's one way into the memory module where a file can be at fault: creating, opening,
 * forcing, verifying and closing regions, and taking region locks. It speaks the API's vocabulary
 * ({@link OpenMode}, {@link CreateOption}, {@link SketchKind}) to the engine and the memory module's
 * to the memory module, and reports each {@link FileFault} as the API's exception of its reason, with
 * the same message, file, cause and stack trace; the reasons for this boundary are in
 * {@code docs/design/files.md}. A region's payload, counters and header are read directly; none of
 * those calls meets a file fault. Cost: a switch per call, nothing on a region's hot paths.
 */
public final class Regions {

    private Regions() {}

    /**
     * Creates a file of a kind, filled with {@code payloadFill}, and opens it
     * ({@link SketchRegions#create(Path, SketchHeader, byte, RegionMode, CreateFlag...)}).
     *
     * @throws SketchFileException of the fault's reason
     * @throws IOException if the file cannot be written
     */
    public static SketchRegion create(
            Path file, SketchHeader header, byte payloadFill, OpenMode mode, CreateOption... options)
            throws IOException {
        return create(file, header, payloadFill, null, mode, options);
    }

    /**
     * Creates a file of a kind, filled with {@code payloadFill}, with {@code preparation} run on it before it
     * gets its name, and opens it
     * ({@link SketchRegions#create(Path, SketchHeader, byte, SketchRegions.Preparation, RegionMode, CreateFlag...)}).
     *
     * @throws SketchFileException of the fault's reason
     * @throws IOException if the file cannot be written, or {@code preparation} throws
     */
    public static SketchRegion create(
            Path file,
            SketchHeader header,
            byte payloadFill,
            SketchRegions.Preparation preparation,
            OpenMode mode,
            CreateOption... options)
            throws IOException {
        try {
            return SketchRegions.create(file, header, payloadFill, preparation, regionMode(mode), flags(options));
        } catch (FileFault fault) {
            throw reported(fault);
        }
    }

    /** Allocates an anonymous region ({@link SketchRegions#anonymous}); no file, so no fault. */
    public static SketchRegion anonymous(SketchHeader header, OpenMode mode) {
        return SketchRegions.anonymous(header, regionMode(mode));
    }

    /**
     * Opens a file of the {@code expected} kind, or of any kind this build knows if {@code null}, and runs
     * {@code check} (if not {@code null}) before another writer can register
     * ({@link SketchRegions#open(Path, RegionMode, SketchRegions.KindCheck, SketchRegions.OpenCheck)}).
     *
     * @throws IncompatibleSketchFileException if the header names an unknown kind or another than expected
     * @throws SketchFileException of the fault's reason
     * @throws IOException if the file cannot be read, or {@code check} refuses it
     */
    public static SketchRegion open(Path file, OpenMode mode, SketchKind expected, SketchRegions.OpenCheck check)
            throws IOException {
        RegionMode regionMode = regionMode(mode);
        try {
            return SketchRegions.open(file, regionMode, kindCheck(expected), check);
        } catch (FileFault fault) {
            throw reported(fault);
        }
    }

    /**
     * Makes an anonymous region of a copy of a sketch file image of the {@code expected} kind, or of any kind
     * this build knows if {@code null} ({@link SketchImages#open}).
     *
     * @throws IncompatibleSketchFileException if the header names an unknown kind or another than expected
     * @throws SketchFileException of the fault's reason, naming {@code origin}
     */
    public static SketchRegion openImage(MemorySegment image, Path origin, OpenMode mode, SketchKind expected)
            throws IOException {
        try {
            return SketchImages.open(image, origin, regionMode(mode), kindCheck(expected));
        } catch (FileFault fault) {
            throw reported(fault);
        }
    }

    /**
     * The kind of a sketch file image, its header validated ({@link SketchImages#read}).
     *
     * @throws IncompatibleSketchFileException if the header names a kind this build does not know
     * @throws SketchFileException of the fault's reason, naming {@code origin}
     */
    public static SketchKind imageKind(MemorySegment image, Path origin) throws IOException {
        try {
            return kind(SketchImages.read(image, origin, kindCheck(null)));
        } catch (FileFault fault) {
            throw reported(fault);
        }
    }

    /**
     * Writes a sketch file image to a new file with the crash-safe creation ({@link SketchImages#create}).
     *
     * @throws SketchFileException of the fault's reason
     * @throws IOException if the file cannot be written
     */
    public static void createFromImage(MemorySegment image, Path origin, Path file, CreateOption... options)
            throws IOException {
        try {
            SketchImages.create(image, origin, file, kindCheck(null), flags(options));
        } catch (FileFault fault) {
            throw reported(fault);
        }
    }

    /**
     * Writes the image of a sketch whose payload comes in pieces to a new file with the crash-safe creation
     * ({@link SketchImages#create(SketchHeader, LongSupplier, LongSupplier, Iterator, Path, CreateFlag...)}).
     *
     * @throws IllegalArgumentException if the pieces do not add up to the payload (nothing appears at {@code file})
     * @throws SketchFileException of the fault's reason
     * @throws IOException if the file cannot be written
     */
    public static void createFromPieces(
            SketchHeader header,
            LongSupplier itemsAdded,
            LongSupplier totalWeight,
            Iterator<MemorySegment> pieces,
            Path file,
            CreateOption... options)
            throws IOException {
        try {
            SketchImages.create(header, itemsAdded, totalWeight, pieces, file, flags(options));
        } catch (FileFault fault) {
            throw reported(fault);
        }
    }

    /**
     * Forces a region ({@link SketchRegion#force()}).
     *
     * @throws UncheckedIOException as the region throws it, with a file fault as its cause reported as the
     *     API's exception
     */
    public static void force(SketchRegion region) {
        try {
            region.force();
        } catch (UncheckedIOException e) {
            throw reported(e);
        }
    }

    /**
     * Compares a region's payload with its checksum ({@link SketchRegion#verify()}).
     *
     * @throws SketchFileException of the fault's reason (a file whose length changed under the mapping)
     * @throws IOException if the payload cannot be mapped for reading
     */
    public static PayloadVerification verify(SketchRegion region) throws IOException {
        try {
            return verification(region.verify());
        } catch (FileFault fault) {
            throw reported(fault);
        }
    }

    /** The API's verification for the memory module's comparison: the same facts, the state of the same name. */
    static PayloadVerification verification(PayloadComparison found) {
        PayloadVerification.State state = switch (found.finding()) {
            case OK -> PayloadVerification.State.OK;
            case NOT_PERSISTED -> PayloadVerification.State.NOT_PERSISTED;
            case NO_CHECKSUM -> PayloadVerification.State.NO_CHECKSUM;
            case STALE_CLOSED_UNCLEANLY -> PayloadVerification.State.STALE_CLOSED_UNCLEANLY;
            case STALE_WRITERS_ATTACHED -> PayloadVerification.State.STALE_WRITERS_ATTACHED;
            case CORRUPT -> PayloadVerification.State.CORRUPT;
        };
        return new PayloadVerification(
                state, found.file(), found.from(), found.to(), found.formatVersion(), found.writers());
    }

    /**
     * Closes a region ({@link SketchRegion#close()}).
     *
     * @throws SketchFileException of the fault's reason
     * @throws IOException if the file lock cannot be released
     */
    public static void close(SketchRegion region) throws IOException {
        try {
            region.close();
        } catch (FileFault fault) {
            throw reported(fault);
        }
    }

    /**
     * Takes a region lock ({@link RegionLock#lock()}).
     *
     * @return {@code true} if the lock was taken over from a holder that died, so the guarded structure
     *     must be repaired
     * @throws RegionLockTimeoutException if a live holder kept it past the lock's timeout
     */
    public static boolean lock(RegionLock lock) {
        try {
            return lock.lock();
        } catch (LockTimeoutFault timeout) {
            throw carriedOver(timeout, new RegionLockTimeoutException(timeout.holder(), timeout.timeout()));
        }
    }

    /** The memory module's mode for an open mode. */
    public static RegionMode regionMode(OpenMode mode) {
        return switch (Objects.requireNonNull(mode, "mode")) {
            case READ_ONLY -> RegionMode.READ_ONLY;
            case SHARED -> RegionMode.SHARED;
            case EXCLUSIVE -> RegionMode.EXCLUSIVE;
        };
    }

    /** The open mode of a region. */
    public static OpenMode openMode(SketchRegion region) {
        return switch (region.mode()) {
            case READ_ONLY -> OpenMode.READ_ONLY;
            case SHARED -> OpenMode.SHARED;
            case EXCLUSIVE -> OpenMode.EXCLUSIVE;
        };
    }

    /** The kind a header names; a region's header was checked at open, so it is one this build knows. */
    public static SketchKind kind(SketchHeader header) {
        SketchKind kind = kindOf(header.kindId());
        if (kind == null) {
            throw new IllegalArgumentException("kind id = " + header.kindId() + ", which this build does not know");
        }
        return kind;
    }

    private static SketchKind kindOf(int id) {
        for (SketchKind kind : SketchKind.values()) {
            if (kind.id() == id) {
                return kind;
            }
        }
        return null;
    }

    /** Accepts the kinds this build knows, or only {@code expected}. */
    private static SketchRegions.KindCheck kindCheck(SketchKind expected) {
        return (file, id) -> {
            SketchKind kind = kindOf(id);
            if (kind == null) {
                throw new IncompatibleSketchFileException(
                        file,
                        "header field 'sketch kind' (offset " + SketchFileLayout.KIND_OFFSET + ") is " + id
                                + ", which this build does not know");
            }
            if (expected != null && kind != expected) {
                throw new IncompatibleSketchFileException(
                        file,
                        "header field 'sketch kind' (offset " + SketchFileLayout.KIND_OFFSET + ") is " + kind
                                + ", expected " + expected);
            }
        };
    }

    private static CreateFlag[] flags(CreateOption... options) {
        CreateFlag[] flags = new CreateFlag[options.length];
        for (int i = 0; i < options.length; i++) {
            flags[i] = options[i] == null
                    ? null
                    : switch (options[i]) {
                        case OVERWRITE_EXISTING -> CreateFlag.OVERWRITE_EXISTING;
                        case REPLACE_IN_USE -> CreateFlag.REPLACE_IN_USE;
                        case OWNER_ONLY -> CreateFlag.OWNER_ONLY;
                    };
        }
        return flags;
    }

    /** The API's exception for a file fault. */
    static SketchFileException reported(FileFault fault) {
        SketchFileException reported = switch (fault.reason()) {
            case CORRUPT -> new CorruptSketchFileException(fault.file(), fault.detail());
            case INCOMPATIBLE -> new IncompatibleSketchFileException(fault.file(), fault.detail());
            case LOCKED -> new SketchFileLockedException(fault.file(), fault.detail());
            case REPLACED -> new SketchFileReplacedException(fault.file(), fault.detail());
            case STORAGE -> new SketchFileStorageException(fault.file(), fault.detail());
        };
        return carriedOver(fault, reported);
    }

    /** An unchecked I/O error whose cause, if a file fault, is reported as the API's exception. */
    private static UncheckedIOException reported(UncheckedIOException e) {
        if (!(e.getCause() instanceof FileFault fault)) {
            return e;
        }
        SketchFileException cause = reported(fault);
        UncheckedIOException reported = fault.toString().equals(e.getMessage())
                ? new UncheckedIOException(cause)
                : new UncheckedIOException(e.getMessage(), cause);
        reported.setStackTrace(e.getStackTrace());
        return reported;
    }

    /** {@code to}, given the cause, the stack trace and the suppressed exceptions of {@code from}. */
    private static <T extends Throwable> T carriedOver(Throwable from, T to) {
        if (from.getCause() != null) {
            to.initCause(from.getCause());
        }
        to.setStackTrace(from.getStackTrace());
        for (Throwable suppressed : from.getSuppressed()) {
            to.addSuppressed(suppressed instanceof FileFault fault ? reported(fault) : suppressed);
        }
        return to;
    }
}
