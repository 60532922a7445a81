package io.mapsketch.memory;

import static io.mapsketch.memory.SketchFileLayout.*;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * The ways to a {@link SketchRegion}: {@link #create} writes a new file and opens it, {@link #open}
 * maps an existing one only after validating its header against the real file length, and
 * {@link #anonymous} allocates a region that is never persisted. A region exists only for a file that
 * passed every check, in the order {@code docs/file-format.md} lists ("What opening checks, in order");
 * a damaged, truncated or foreign file is a {@link FileFault}, never a mapping and never a crash.
 * Writers register in the header's live line here, inside the file's registration gate; the reasons
 * are in {@code docs/design/files.md}.
 */
public final class SketchRegions {

    private SketchRegions() {}

    /**
     * Accepts or refuses the sketch kind id in a file's header. Asked once the header's checksum holds and
     * before its hash scheme and payload bounds are checked; nothing of the file is mapped yet.
     */
    @FunctionalInterface
    public interface KindCheck {

        /** Accepts every kind id. */
        KindCheck ANY = (file, kindId) -> {};

        /**
         * Checks the kind id read from the header.
         *
         * @param file the file, for the message
         * @param kindId the value at {@link SketchFileLayout#KIND_OFFSET}
         * @throws IOException to refuse the file, naming it and the field
         */
        void check(Path file, int kindId) throws IOException;
    }

    /**
     * A check of a freshly mapped file that runs before any other writer can register
     * ({@link SketchRegions#open(Path, RegionMode, KindCheck, OpenCheck)}).
     */
    @FunctionalInterface
    public interface OpenCheck {

        /**
         * Checks the region and, if this opener is the only writer, may rewrite state that writers
         * share: until the check returns no other writer, in this or another process, has the file open.
         *
         * @param region the open region; {@link SketchRegion#wasCleanlyClosed()} is exact for a sole writer
         * @param soleWriter {@code true} for an {@code EXCLUSIVE} writer and for a {@code SHARED} writer
         *     that found no other writer attached; {@code false} for a {@code SHARED} writer that joined
         *     others and for a {@code READ_ONLY} opener
         * @throws IOException to refuse the file, naming it
         */
        void check(SketchRegion region, boolean soleWriter) throws IOException;
    }

    /**
     * Creates a sketch file of zero payload bytes and opens it, as
     * {@link #create(Path, SketchHeader, byte, RegionMode, CreateFlag...)} does.
     *
     * @param file where the sketch file goes
     * @param header what the file holds; its payload length sizes the file
     * @param mode how to open it after creation: {@code SHARED} or {@code EXCLUSIVE}
     * @param flags what to do with a file already at the path, and the new file's permissions
     * @return the open region
     * @throws IOException as {@link #create(Path, SketchHeader, byte, RegionMode, CreateFlag...)} throws
     */
    public static SketchRegion create(Path file, SketchHeader header, RegionMode mode, CreateFlag... flags)
            throws IOException {
        return create(file, header, (byte) 0, mode, flags);
    }

    /**
     * Creates a sketch file whose every payload byte is {@code payloadFill} (a kind's empty value) and opens
     * it. The file is written beside its final name with its blocks reserved, forced to disk and then linked
     * into place in one step: it appears complete, or not at all.
     *
     * <p>Cost: writes the whole file once.
     *
     * @param file where the sketch file goes
     * @param header what the file holds; its payload length sizes the file
     * @param payloadFill the value of every payload byte
     * @param mode how to open it after creation: {@code SHARED} or {@code EXCLUSIVE}
     * @param flags what to do with a file already at the path, and the new file's permissions
     * @return the open region
     * @throws java.nio.file.FileAlreadyExistsException if a file exists and overwriting was not asked for
     * @throws FileFault {@code LOCKED} if writers have the file to be replaced open (and
     *     {@link CreateFlag#REPLACE_IN_USE} was not given); {@code CORRUPT} if what is at the path is not a
     *     regular file
     * @throws IllegalArgumentException if {@code mode} is {@code READ_ONLY}
     * @throws IOException if the file cannot be written
     */
    public static SketchRegion create(
            Path file, SketchHeader header, byte payloadFill, RegionMode mode, CreateFlag... flags) throws IOException {
        return create(file, header, payloadFill, null, mode, flags);
    }

    /**
     * What a new file holds before it gets its name, beyond its header and fill: a step that may open the
     * file, still under a temporary name, as a sketch, write its content through the sketch's own
     * mechanics, and close it. The file is forced after the step.
     */
    @FunctionalInterface
    public interface Preparation {

        /**
         * Writes the new file's content.
         *
         * @param temporary the new file, complete with its header and fill, under a temporary name in
         *     the directory of its final name
         * @throws IOException to abandon the creation: nothing appears under the final name
         */
        void prepare(Path temporary) throws IOException;
    }

    /**
     * Creates a sketch file as {@link #create(Path, SketchHeader, byte, RegionMode, CreateFlag...)} does,
     * with {@code preparation} run on the new file before it is forced and linked into place, so that the
     * file appears with that content, or not at all.
     *
     * @param file where the sketch file goes
     * @param header what the file holds; its payload length sizes the file
     * @param payloadFill the value of every payload byte before the preparation
     * @param preparation writes the content, or {@code null} for the fill alone
     * @param mode how to open it after creation: {@code SHARED} or {@code EXCLUSIVE}
     * @param flags what to do with a file already at the path, and the new file's permissions
     * @return the open region
     * @throws IOException as {@link #create(Path, SketchHeader, byte, RegionMode, CreateFlag...)} throws, or
     *     as {@code preparation} throws (nothing was left under the name)
     */
    public static SketchRegion create(
            Path file,
            SketchHeader header,
            byte payloadFill,
            Preparation preparation,
            RegionMode mode,
            CreateFlag... flags)
            throws IOException {
        Objects.requireNonNull(header, "header");
        requireWritable(mode);
        SketchFileWriter.writeNew(file, header, payloadFill, preparation, flags);
        int kind = header.kindId();
        return open(
                file,
                mode,
                (path, found) -> {
                    if (found != kind) {
                        throw new FileFault(
                                FileFault.Reason.INCOMPATIBLE,
                                path,
                                "header field 'sketch kind' (offset "
                                        + KIND_OFFSET + ") is " + found + ", expected " + kind
                                        + ": another file was put at this"
                                        + " path while it was created");
                    }
                },
                null);
    }

    /**
     * Opens a sketch file of any kind, as {@link #open(Path, RegionMode, KindCheck, OpenCheck)} does.
     *
     * @param file the sketch file
     * @param mode read-only, shared writer or exclusive writer
     * @return the open region
     * @throws IOException as {@link #open(Path, RegionMode, KindCheck, OpenCheck)} throws
     */
    public static SketchRegion open(Path file, RegionMode mode) throws IOException {
        return open(file, mode, KindCheck.ANY, null);
    }

    /**
     * Opens a sketch file whose kind {@code kinds} accepts, as
     * {@link #open(Path, RegionMode, KindCheck, OpenCheck)} does.
     *
     * @param file the sketch file
     * @param mode read-only, shared writer or exclusive writer
     * @param kinds accepts or refuses the header's kind id
     * @return the open region
     * @throws IOException as {@link #open(Path, RegionMode, KindCheck, OpenCheck)} throws
     */
    public static SketchRegion open(Path file, RegionMode mode, KindCheck kinds) throws IOException {
        return open(file, mode, kinds, null);
    }

    /**
     * Opens a sketch file: refuses anything but a regular file without waiting on it, validates the header
     * (magic, format version, checksum, kind, hash scheme, payload bounds, live and checksum lines) against
     * the real file length, reserves a writer's storage, maps the file and registers a writer in the live
     * line; then runs {@code check} before any other writer can register, so that a sole writer may repair
     * what a writer that died left half-done. If the check throws, the region is closed.
     *
     * <p>Cost: one 4 KiB read, a CRC32C of it and one {@code mmap}; no payload page is touched. A writer adds
     * an {@code fallocate} (microseconds on a fully allocated file, milliseconds per GiB of holes), and other
     * writers wait for the check (up to the gate's 10 s before they report the file locked).
     *
     * @param file the sketch file
     * @param mode read-only, shared writer or exclusive writer
     * @param kinds accepts or refuses the header's kind id
     * @param check the check of the mapped file, or {@code null} for none
     * @return the open region
     * @throws FileFault {@code CORRUPT} if the path is not a sketch file or the file is damaged;
     *     {@code INCOMPATIBLE} if it is of a newer format or an unknown hash scheme; {@code LOCKED} if the mode
     *     is excluded by another writer; {@code STORAGE} if a writer's file has holes the file system cannot
     *     back
     * @throws java.nio.file.NoSuchFileException if there is no such file
     * @throws IOException if the file cannot be read, or {@code kinds} or {@code check} refuses it
     */
    public static SketchRegion open(Path file, RegionMode mode, KindCheck kinds, OpenCheck check) throws IOException {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(kinds, "kinds");
        OpenFileTable.Attachment attachment = OpenFileTable.attach(file, mode);
        Arena arena = Arena.ofShared();
        SketchRegion region;
        try {
            FileChannel channel = attachment.channel();
            long fileLength = channel.size();
            SketchHeader header = HeaderCodec.read(readHeaderPage(channel, fileLength), file, fileLength, kinds);
            if (mode.isWritable()) {
                attachment.reserve(fileLength);
            }
            MemorySegment mapping = channel.map(
                    mode.isWritable() ? FileChannel.MapMode.READ_WRITE : FileChannel.MapMode.READ_ONLY,
                    0,
                    fileLength,
                    arena);
            AtomicSegment page = new AtomicSegment(mapping.asSlice(0, HEADER_LENGTH));
            Registration registration = mode.isWritable()
                    ? registerWriter(page, attachment.soleWriter(), file)
                    : new Registration((page.getIntAcquire(FLAGS_OFFSET) & FLAG_CLEAN_CLOSE) != 0, OptionalInt.empty());
            if (mode.isWritable() && PayloadChecksum.kept(header)) {
                PayloadChecksum.writerAttached(page); // after the writers count: see PayloadChecksum
            }
            region = new SketchRegion(file, mode, header, arena, mapping, attachment, registration);
        } catch (IOException | RuntimeException | Error e) {
            arena.close();
            OpenFileTable.detach(attachment);
            throw e;
        }
        try {
            if (check != null) {
                check.check(region, mode.isWritable() && attachment.soleWriter());
            }
            if (mode.isWritable()) {
                OpenFileTable.endRegistration(attachment);
            }
            return region;
        } catch (IOException | RuntimeException | Error e) {
            try {
                region.close();
            } catch (IOException | RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /**
     * Allocates an off-heap region with the same header layout as a file, zero payload, never
     * persisted. Freed by {@link SketchRegion#close()}.
     *
     * @param header what the region holds
     * @param mode {@code SHARED} if several threads will write it, {@code EXCLUSIVE} if one will
     * @return the region
     * @throws IllegalArgumentException if {@code mode} is {@code READ_ONLY}
     */
    public static SketchRegion anonymous(SketchHeader header, RegionMode mode) {
        Objects.requireNonNull(header, "header");
        requireWritable(mode);
        Arena arena = Arena.ofShared();
        MemorySegment memory = arena.allocate(header.fileLength(), CACHE_LINE);
        HeaderCodec.writeNew(header, memory.asSlice(0, HEADER_LENGTH));
        return new SketchRegion(null, mode, header, arena, memory, null, new Registration(true, OptionalInt.empty()));
    }

    private static void requireWritable(RegionMode mode) {
        Objects.requireNonNull(mode, "mode");
        if (!mode.isWritable()) {
            throw new IllegalArgumentException("mode = " + mode + ", must be SHARED or EXCLUSIVE for a new region");
        }
    }

    private static MemorySegment readHeaderPage(FileChannel channel, long fileLength) throws IOException {
        ByteBuffer page = ByteBuffer.allocate((int) Math.min(fileLength, HEADER_LENGTH));
        int read;
        do {
            read = channel.read(page, page.position());
        } while (read >= 0 && page.hasRemaining());
        return MemorySegment.ofArray(page.array());
    }

    /**
     * Registers a writer in the live line. A sole writer knows every earlier writer is gone, so a
     * non-zero count is impossible (a writer died without closing, or lost its lock while open): it
     * resets the count to itself and says so.
     */
    private static Registration registerWriter(AtomicSegment page, boolean soleWriter, Path file) {
        page.getAndClearInt(FLAGS_OFFSET, FLAG_CLEAN_CLOSE);
        if (!soleWriter) {
            page.getAndAddInt(WRITERS_OFFSET, 1);
            return new Registration(true, OptionalInt.empty());
        }
        int stale = page.getIntAcquire(WRITERS_OFFSET);
        page.putIntRelease(WRITERS_OFFSET, 1);
        if (stale == 0) {
            return new Registration(true, OptionalInt.empty());
        }
        Notices.warn(FileFault.describe(file) + ": the writer count was " + stale + " although no other"
                + " writer holds the file ("
                + (stale > 0
                        ? "writers died without closing it"
                        : "impossible: a writer's" + " lock was released while it was open")
                + "); reset to 1, this writer");
        return new Registration(false, OptionalInt.of(stale));
    }

    /**
     * What a writer found in the live line when it registered.
     *
     * @param cleanlyClosedBefore see {@link SketchRegion#wasCleanlyClosed()}
     * @param repairedWriterCount see {@link SketchRegion#repairedWriterCount()}
     */
    record Registration(boolean cleanlyClosedBefore, OptionalInt repairedWriterCount) {}
}
