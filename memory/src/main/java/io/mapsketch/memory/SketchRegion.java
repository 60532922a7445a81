package io.mapsketch.memory;

import static io.mapsketch.memory.SketchFileLayout.*;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A sketch's memory: a 4096-byte header page and a 64-byte-aligned payload, mapped from a file
 * or allocated off-heap (anonymous). The layout is drawn in {@link SketchFileLayout}.
 *
 * <p>Three ways in: {@link #create} writes a new file (atomically: a crash leaves either no file
 * or a complete one), {@link #open} maps an existing one after validating its header against the
 * real file length, and {@link #anonymous} allocates a region with the same header that is never
 * persisted. Opening never maps before validating, so a damaged or truncated file is a
 * {@link SketchFileException}, not a crash.
 *
 * <p>Concurrency: the payload is shared by every thread and every process that maps the file.
 * Writers in {@link OpenMode#SHARED} mode must use the atomic operations of
 * {@link #payload()}; an {@link OpenMode#EXCLUSIVE} writer is the only writer and may use plain
 * stores. The live counters ({@link #itemsAdded()}, {@link #totalWeight()}) follow the same rule:
 * atomic adds by {@code SHARED} writers, release stores ({@link #addItems}) or plain stores
 * ({@link #soleWriterCounters()}) by the {@code EXCLUSIVE} writer, acquire loads by readers; they
 * never wrap ({@link LiveCounters}).
 * Closing while other threads of this process still use the region makes their later accesses
 * throw {@link IllegalStateException}, never crash.
 *
 * <p>Durability: every write lands in the page cache at once and survives the writing process
 * being killed; {@link #force()} makes it survive an operating-system crash or power loss.
 *
 * <p>Integrity: from format version {@value SketchFileLayout#PAYLOAD_CHECKSUM_VERSION} the header keeps a
 * checksum of the payload, recorded by {@link #force()} and sealed by the last writer's {@link #close()};
 * {@link #verify()} compares the payload with it. Opening never reads the payload.
 */
public final class SketchRegion implements AutoCloseable {

    private final Path file;
    private final OpenMode mode;
    private final SketchHeader header;
    private final Arena arena;
    private final AtomicSegment headerPage;
    private final AtomicSegment payload;
    private final AtomicSegment summaryLine;
    private final OpenFileTable.Attachment attachment;
    private final Registration registration;
    private final AtomicBoolean closed = new AtomicBoolean();

    private SketchRegion(Path file, OpenMode mode, SketchHeader header, Arena arena, MemorySegment mapping,
                         OpenFileTable.Attachment attachment, Registration registration) {
        this.file = file;
        this.mode = mode;
        this.header = header;
        this.arena = arena;
        this.headerPage = new AtomicSegment(mapping.asSlice(0, HEADER_LENGTH));
        this.payload = new AtomicSegment(mapping.asSlice(header.payloadOffset(), header.payloadLength()));
        this.summaryLine = new AtomicSegment(mapping.asSlice(SUMMARY_OFFSET, CACHE_LINE));
        this.attachment = attachment;
        this.registration = registration;
    }

    /**
     * Creates a sketch file and opens it. The file is written beside its final name, its blocks are
     * reserved (zero-filled, so a later write cannot fault on a full disk), it is forced to disk and
     * then linked into place in one step; a crash part-way leaves no file at {@code file}.
     *
     * <p>Cost: writes the whole file once (the payload as zeros).
     *
     * @param file where the sketch file goes
     * @param header what the file holds; its payload length sizes the file
     * @param mode how to open it after creation: {@code SHARED} or {@code EXCLUSIVE}
     * @param options {@link CreateOption#OVERWRITE_EXISTING} to replace an existing file that no writer
     *     has open, {@link CreateOption#REPLACE_IN_USE} to replace it even then,
     *     {@link CreateOption#OWNER_ONLY} for permissions 0600 instead of 0644
     * @return the open region
     * @throws java.nio.file.FileAlreadyExistsException if the file exists and overwriting was not asked for
     * @throws SketchFileLockedException if overwriting was asked for and writers have the existing file
     *     open, naming them where this process can see them
     * @throws CorruptSketchFileException if what is at the path is not a regular file (a directory)
     * @throws IllegalArgumentException if {@code mode} is {@code READ_ONLY}
     * @throws IOException if the file cannot be written
     */
    public static SketchRegion create(Path file, SketchHeader header, OpenMode mode, CreateOption... options)
            throws IOException {
        return create(file, header, (byte) 0, mode, options);
    }

    /**
     * Creates a sketch file whose every payload byte is {@code payloadFill}, for sketch kinds whose
     * empty state is not zero (a MinHash slot is empty at {@code 0xFF...FF}); otherwise as
     * {@link #create(Path, SketchHeader, OpenMode, CreateOption...)}, atomic in the same way: the
     * file appears at its name already filled, or not at all.
     *
     * <p>Cost: writes the whole file once.
     *
     * @param file where the sketch file goes
     * @param header what the file holds; its payload length sizes the file
     * @param payloadFill the value of every payload byte
     * @param mode how to open it after creation: {@code SHARED} or {@code EXCLUSIVE}
     * @param options as for {@link #create(Path, SketchHeader, OpenMode, CreateOption...)}
     * @return the open region
     * @throws java.nio.file.FileAlreadyExistsException if the file exists and overwriting was not asked for
     * @throws SketchFileLockedException if overwriting was asked for and writers have the existing file open
     * @throws CorruptSketchFileException if what is at the path is not a regular file (a directory)
     * @throws IllegalArgumentException if {@code mode} is {@code READ_ONLY}
     * @throws IOException if the file cannot be written
     */
    public static SketchRegion create(Path file, SketchHeader header, byte payloadFill, OpenMode mode,
            CreateOption... options) throws IOException {
        Objects.requireNonNull(header, "header");
        requireWritable(mode);
        SketchFileWriter.writeNew(file, header, payloadFill, options);
        return open(file, mode, header.kind());
    }

    /**
     * Opens a sketch file of any kind. See {@link #open(Path, OpenMode, SketchKind)}.
     *
     * @param file the sketch file
     * @param mode read-only, shared writer or exclusive writer
     * @return the open region
     * @throws SketchFileException if the file is corrupt, incompatible or locked
     * @throws IOException if the file cannot be read
     */
    public static SketchRegion open(Path file, OpenMode mode) throws IOException {
        return open(file, mode, null);
    }

    /**
     * Opens a sketch file, validating that the path names a regular file (decided without waiting:
     * a FIFO or device is refused, never opened for good), then magic, format version, header
     * checksum, kind, hash scheme and payload bounds against the real file length before anything
     * is mapped. A writer also reserves the file's storage: a file with holes (a sparse copy) gets
     * its blocks before it is mapped, so that a store cannot meet a full disk.
     *
     * <p>Cost: one 4 KiB read, a CRC32C of it and one {@code mmap}; no payload page is touched. A
     * writer adds an {@code fallocate} (about 5 us on a fully allocated 1 GiB file; allocating the
     * holes of a sparse one takes longer, a few milliseconds per GiB on ext4).
     *
     * @param file the sketch file
     * @param mode read-only, shared writer or exclusive writer
     * @param expectedKind the kind the caller can read, or {@code null} for any
     * @return the open region
     * @throws CorruptSketchFileException if the file is not a sketch file (a directory, FIFO, socket or
     *     device included) or is damaged
     * @throws IncompatibleSketchFileException if it is of another kind, a newer format or an unknown hash
     * @throws SketchFileLockedException if the mode is excluded by another writer
     * @throws SketchFileStorageException if a writer's file has holes that the file system cannot back
     * @throws java.nio.file.NoSuchFileException if there is no such file
     * @throws IOException if the file cannot be read
     */
    public static SketchRegion open(Path file, OpenMode mode, SketchKind expectedKind) throws IOException {
        return open(file, mode, expectedKind, null);
    }

    /**
     * Opens a sketch file as {@link #open(Path, OpenMode, SketchKind)} does, then runs a check of the
     * mapped file before any other writer can register: a writer holds the registration gate until the
     * check returns, so a writer that {@linkplain OpenCheck is the only one} may repair what a writer
     * that died left half-done, and no writer in any process changes the file meanwhile. If the check
     * throws, the region is closed and the exception propagates.
     *
     * <p>Cost: that of {@link #open(Path, OpenMode, SketchKind)} plus the check's; other writers wait
     * for the check to return (up to the gate's 10 s before they report the file locked).
     *
     * @param file the sketch file
     * @param mode read-only, shared writer or exclusive writer
     * @param expectedKind the kind the caller can read, or {@code null} for any
     * @param check the check, or {@code null} for none
     * @return the open region
     * @throws CorruptSketchFileException if the file is not a sketch file or is damaged, or the check
     *     refuses it so
     * @throws IncompatibleSketchFileException if it is of another kind, a newer format or an unknown hash
     * @throws SketchFileLockedException if the mode is excluded by another writer
     * @throws SketchFileStorageException if a writer's file has holes that the file system cannot back
     * @throws java.nio.file.NoSuchFileException if there is no such file
     * @throws IOException if the file cannot be read, or the check throws it
     */
    public static SketchRegion open(Path file, OpenMode mode, SketchKind expectedKind, OpenCheck check)
            throws IOException {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(mode, "mode");
        OpenFileTable.Attachment attachment = OpenFileTable.attach(file, mode);
        Arena arena = Arena.ofShared();
        SketchRegion region;
        try {
            FileChannel channel = attachment.channel();
            long fileLength = channel.size();
            SketchHeader header = HeaderCodec.read(readHeaderPage(channel, fileLength), file, fileLength,
                    expectedKind);
            if (mode.isWritable()) {
                attachment.reserve(fileLength);
            }
            MemorySegment mapping = channel.map(mode.isWritable() ? FileChannel.MapMode.READ_WRITE
                    : FileChannel.MapMode.READ_ONLY, 0, fileLength, arena);
            AtomicSegment page = new AtomicSegment(mapping.asSlice(0, HEADER_LENGTH));
            Registration registration = mode.isWritable() ? registerWriter(page, attachment.soleWriter(), file)
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
     * persisted. Freed by {@link #close()}.
     *
     * @param header what the region holds
     * @param mode {@code SHARED} if several threads will write it, {@code EXCLUSIVE} if one will
     * @return the region
     * @throws IllegalArgumentException if {@code mode} is {@code READ_ONLY}
     */
    public static SketchRegion anonymous(SketchHeader header, OpenMode mode) {
        Objects.requireNonNull(header, "header");
        requireWritable(mode);
        Arena arena = Arena.ofShared();
        MemorySegment memory = arena.allocate(header.fileLength(), CACHE_LINE);
        HeaderCodec.writeNew(header, memory.asSlice(0, HEADER_LENGTH));
        return new SketchRegion(null, mode, header, arena, memory, null, new Registration(true, OptionalInt.empty()));
    }

    private static void requireWritable(OpenMode mode) {
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
        Notices.warn(SketchFileException.describe(file) + ": the writer count was " + stale + " although no other"
                + " writer holds the file (" + (stale > 0 ? "writers died without closing it" : "impossible: a writer's"
                + " lock was released while it was open") + "); reset to 1, this writer");
        return new Registration(false, OptionalInt.of(stale));
    }

    /**
     * What a writer found in the live line when it registered.
     *
     * @param cleanlyClosedBefore see {@link SketchRegion#wasCleanlyClosed()}
     * @param repairedWriterCount see {@link SketchRegion#repairedWriterCount()}
     */
    private record Registration(boolean cleanlyClosedBefore, OptionalInt repairedWriterCount) {
    }

    /**
     * Returns the validated static header.
     *
     * @return the header read at open (or written at creation)
     */
    public SketchHeader header() {
        return header;
    }

    /**
     * Returns the file this region maps.
     *
     * @return the path as given, or empty for an anonymous region
     */
    public Optional<Path> file() {
        return Optional.ofNullable(file);
    }

    /**
     * Returns the mode the region was opened in.
     *
     * @return the open mode
     */
    public OpenMode mode() {
        return mode;
    }

    /**
     * Returns the payload: {@link SketchHeader#payloadLength()} bytes starting on a cache-line
     * (in files, page) boundary. Accesses after {@link #close()} throw {@link IllegalStateException};
     * writes to a read-only region throw {@link IllegalArgumentException}.
     *
     * @return the payload with atomic word access
     */
    public AtomicSegment payload() {
        return payload;
    }

    /**
     * Returns the header's summary line: the 64 bytes at {@link SketchFileLayout#SUMMARY_OFFSET}, live
     * values the sketch kind keeps about its payload, outside the header's checksum. Writers update it
     * with the rules of {@link #payload()} (atomics for {@code SHARED} writers); its layout belongs to
     * the sketch kind. Accesses after {@link #close()} throw {@link IllegalStateException}; writes to a
     * read-only region throw {@link IllegalArgumentException}.
     *
     * @return the summary line with atomic word access
     * @throws IllegalStateException if the file's format version has no summary line
     *     ({@link SketchHeader#hasSummaryLine()}): those bytes are then reserved
     */
    public AtomicSegment summaryLine() {
        if (!header.hasSummaryLine()) {
            throw new IllegalStateException(SketchFileException.describe(file) + " is of format version "
                    + header.formatVersion() + ", which has no summary line");
        }
        return summaryLine;
    }

    /**
     * Tells whether every writer that opened this file before closed it cleanly. For a writer that
     * found no other live writer this is exact (a writer that died is detected); a writer that joined
     * live writers and a read-only opener report the clean-close flag as found, which is also clear
     * while other writers are still attached.
     *
     * @return {@code true} if the file was closed cleanly before this open
     */
    public boolean wasCleanlyClosed() {
        return registration.cleanlyClosedBefore();
    }

    /**
     * Returns the writer count this opener found impossible and repaired. Only an opener that holds the
     * writer lock alone, inside the gate, can prove that no other writer is attached; when it finds a
     * count other than zero (writers that died without closing, or a negative count left by a writer
     * whose lock was released under it) it resets the count to itself, logs a warning on the
     * {@code io.mapsketch.memory} logger and reports the count found here.
     *
     * @return the count found and reset, or empty if the count was right (and for readers and writers
     *     that joined others)
     */
    public OptionalInt repairedWriterCount() {
        return registration.repairedWriterCount();
    }

    /**
     * Reads the number of writers registered in the live line (acquire): the writers that have the
     * file open now, plus any that died while open since the last sole writer opened it.
     *
     * @return registered writers, 0 when no writer has the file open
     * @throws IllegalStateException if the region is closed
     */
    public int attachedWriters() {
        return liveHeader().getIntAcquire(WRITERS_OFFSET);
    }

    /**
     * Returns the live counters for this region's {@code EXCLUSIVE} writer to update with plain loads
     * and stores ({@link SoleWriterCounters}); {@link #addItems} and {@link #addWeight} stay available
     * and update the same counters.
     *
     * @return the counters
     * @throws IllegalStateException if this region is not open as the {@code EXCLUSIVE} writer
     */
    public SoleWriterCounters soleWriterCounters() {
        requireOpen();
        if (mode != OpenMode.EXCLUSIVE) {
            throw new IllegalStateException(SketchFileException.describe(file) + " is open " + mode
                    + "; only the EXCLUSIVE writer may update the counters with plain stores");
        }
        return new SoleWriterCounters(headerPage.segment());
    }

    /**
     * Reads the items-added counter from the live line (acquire). The counter saturates: from
     * {@link LiveCounters#LIMIT} on it reads as {@code Long.MAX_VALUE}.
     *
     * @return the number of items recorded by all writers of this file so far, or {@code Long.MAX_VALUE}
     *     if that number reached {@link LiveCounters#LIMIT}
     * @throws IllegalStateException if the region is closed
     */
    public long itemsAdded() {
        return LiveCounters.itemsRead(liveHeader().getLongAcquire(ITEMS_OFFSET));
    }

    /**
     * Adds to the items-added counter, saturating at {@link LiveCounters#LIMIT}: atomically for
     * {@code SHARED} writers (safe across threads and processes), with a release store for the one
     * {@code EXCLUSIVE} writer.
     *
     * @param delta items added, non-negative
     * @return the counter after the addition, as {@link #itemsAdded()} reads it
     * @throws IllegalArgumentException if {@code delta} is negative
     * @throws IllegalStateException if the region is closed or read-only
     */
    public long addItems(long delta) {
        requireNonNegative("delta", delta);
        requireWriter();
        if (mode == OpenMode.EXCLUSIVE) {
            return LiveCounters.itemsRead(storeAsSoleWriter(ITEMS_OFFSET,
                    LiveCounters.itemsPlus(headerPage.getLong(ITEMS_OFFSET), delta)));
        }
        return LiveCounters.itemsRead(LiveCounters.addItemsShared(headerPage, ITEMS_OFFSET, delta));
    }

    /**
     * Subtracts from the items-added counter, for sketches that support removal and keep the counter
     * net: never below zero, and a saturated counter stays saturated. A compare-and-set for
     * {@code SHARED} writers, a release store for the {@code EXCLUSIVE} writer.
     *
     * @param count items removed, non-negative
     * @return the counter after the subtraction, as {@link #itemsAdded()} reads it
     * @throws IllegalArgumentException if {@code count} is negative
     * @throws IllegalStateException if the region is closed or read-only
     */
    public long removeItems(long count) {
        requireNonNegative("count", count);
        requireWriter();
        if (mode == OpenMode.EXCLUSIVE) {
            return LiveCounters.itemsRead(storeAsSoleWriter(ITEMS_OFFSET,
                    LiveCounters.itemsPlus(headerPage.getLong(ITEMS_OFFSET), -count)));
        }
        return LiveCounters.itemsRead(LiveCounters.removeItemsShared(headerPage, ITEMS_OFFSET, count));
    }

    /**
     * Reads the total-weight counter from the live line (acquire).
     *
     * @return the sum of all weights recorded so far (for example Count-Min's N)
     * @throws IllegalStateException if the region is closed
     */
    public long totalWeight() {
        return liveHeader().getLongAcquire(WEIGHT_OFFSET);
    }

    /**
     * Adds to the total-weight counter, or refuses if that would take it past
     * {@link LiveCounters#LIMIT}: atomically for {@code SHARED} writers (concurrent additions never
     * take it past {@code 2^63 - 1} together), with a release store for the {@code EXCLUSIVE} writer.
     *
     * @param delta weight added, non-negative
     * @return the counter after the addition
     * @throws IllegalArgumentException if {@code delta} is negative or would take the total weight past
     *     {@link LiveCounters#LIMIT}; nothing was added
     * @throws IllegalStateException if the region is closed or read-only
     */
    public long addWeight(long delta) {
        requireNonNegative("delta", delta);
        requireWriter();
        long updated;
        if (mode == OpenMode.EXCLUSIVE) {
            long current = headerPage.getLong(WEIGHT_OFFSET);
            updated = LiveCounters.weightRoom(current, delta) ? storeAsSoleWriter(WEIGHT_OFFSET, current + delta) : -1;
        } else {
            updated = LiveCounters.addWeightShared(headerPage, WEIGHT_OFFSET, delta);
        }
        if (updated < 0) {
            throw new IllegalArgumentException("delta = " + delta + " would take the total weight " + totalWeight()
                    + " past " + LiveCounters.LIMIT + " (2^63 - 2^55 - 1); nothing was added");
        }
        return updated;
    }

    /** The only writer: a release store publishes the count without a locked instruction. */
    private long storeAsSoleWriter(int offset, long value) {
        headerPage.putLongRelease(offset, value);
        return value;
    }

    private static void requireNonNegative(String name, long value) {
        if (value < 0) {
            throw new IllegalArgumentException(name + " = " + value + ", must be >= 0");
        }
    }

    /**
     * Makes every write so far durable: records the payload's checksum (format version
     * {@value SketchFileLayout#PAYLOAD_CHECKSUM_VERSION} on, see {@link #verify()}) and flushes the mapped
     * file to the storage device. No effect on anonymous or read-only regions. A writer first checks that
     * the file still has its length and is still the one at its path, and throws without flushing if not.
     *
     * <p>Cost: two {@code stat} calls, one read of the payload for the checksum, then an {@code msync} of
     * the whole mapping, which writes what is dirty; call it at checkpoints, not per update.
     *
     * @throws IllegalStateException if the region is closed
     * @throws UncheckedIOException if the operating system reports a write error, if the checksum cannot
     *     be recorded, or with a {@link SketchFileReplacedException} if another file is at the path now (or
     *     none), or a {@link CorruptSketchFileException} if the file's length changed under the mapping
     */
    public void force() {
        requireOpen();
        if (file != null && mode.isWritable()) {
            try {
                SketchFileException fault = fileFault();
                if (fault != null) {
                    throw fault;
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            if (PayloadChecksum.kept(header)) {
                try {
                    PayloadChecksum.recordAtForce(headerPage, attachment.channel(), header, file);
                } catch (IOException e) {
                    throw new UncheckedIOException(SketchFileException.describe(file)
                            + ": cannot record the payload's checksum", e);
                }
            }
            headerPage.segment().force();
            payload.segment().force();
        }
    }

    /**
     * Compares the payload with the checksum in the file's header and says what that proves
     * ({@link PayloadVerification}): {@code OK} when every chunk matches its digest, {@code CORRUPT} with the
     * first bad chunk when one does not although no writer can have changed it since the last writer's clean
     * close recorded the digests, {@code STALE_...} when one does not while writers are registered or after
     * an unclean close, {@code NO_CHECKSUM} for files of format versions before
     * {@value SketchFileLayout#PAYLOAD_CHECKSUM_VERSION} and {@code NOT_PERSISTED} for anonymous regions.
     * Writes nothing, in any mode.
     *
     * <p>Cost: one read of the payload through a mapping of its own (none for the last two); opening never
     * reads the payload.
     *
     * @return what the comparison found
     * @throws IllegalStateException if the region is closed
     * @throws IOException if the payload cannot be mapped for reading
     */
    public PayloadVerification verify() throws IOException {
        requireOpen();
        if (file == null) {
            return new PayloadVerification(PayloadVerification.State.NOT_PERSISTED, null, 0, 0,
                    header.formatVersion(), 0);
        }
        if (!PayloadChecksum.kept(header)) {
            return new PayloadVerification(PayloadVerification.State.NO_CHECKSUM, file, 0, 0, header.formatVersion(),
                    attachedWriters());
        }
        return PayloadChecksum.verify(headerPage, attachment.channel(), header, file);
    }

    /**
     * Tells what became of a writer's file since it was mapped: {@code null} if it still has its length
     * and is the file at its path; a corrupt-file exception if its length changed (an access past the
     * new end would kill the JVM: never truncate a mapped sketch file), a replaced-file exception if
     * the path names another file or none.
     */
    private SketchFileException fileFault() throws IOException {
        long length = attachment.channel().size();
        if (length != header.fileLength()) {
            return new CorruptSketchFileException(file, "file length is " + length + " bytes, but "
                    + header.fileLength() + " are mapped: the file was truncated or extended while open, which"
                    + " mapsketch never does; an access past its end would kill the JVM (SIGBUS)");
        }
        try {
            if (FileAccess.get().status(file).identity().equals(attachment.key())) {
                return null;
            }
        } catch (NoSuchFileException gone) {
            return new SketchFileReplacedException(file, "no file is at this path any more (deleted or renamed);"
                    + " what this writer added is only in the file it still maps");
        }
        return new SketchFileReplacedException(file, "another file is at this path now (replaced, for example by"
                + " a create with CreateOption.REPLACE_IN_USE); what this writer added is only in the file it still"
                + " maps, which no new opener of the path sees");
    }

    /**
     * Tells whether {@link #close()} has been called.
     *
     * @return {@code true} once closed
     */
    public boolean isClosed() {
        return closed.get();
    }

    /**
     * Unmaps the region (or frees it, if anonymous) and, for a writer, records a clean close when it
     * is the last writer attached: from format version {@value SketchFileLayout#PAYLOAD_CHECKSUM_VERSION}
     * on, it first seals the payload's checksum ({@link #verify()}). Later use of this region or of its
     * payload throws {@link IllegalStateException}. Closing twice does nothing the second time. A writer
     * checks, as {@link #force()} does, that its file is unchanged, and after releasing everything throws
     * if not.
     *
     * <p>Cost: for the last writer of a file with a checksum, one read of the payload.
     *
     * @throws SketchFileReplacedException if another file is at the path now, or none
     * @throws CorruptSketchFileException if the file's length changed under the mapping (the header is
     *     then left alone)
     * @throws IOException if releasing the file lock or closing the file fails, or the last writer
     *     cannot map the file to seal its checksum
     */
    @Override
    public void close() throws IOException {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        SketchFileException fault = null;
        boolean sealing = false;
        long generation = 0;
        try {
            if (file != null && mode.isWritable()) {
                fault = fileFault();
                boolean intact = !(fault instanceof CorruptSketchFileException);
                boolean checksummed = intact && PayloadChecksum.kept(header);
                generation = checksummed ? PayloadChecksum.generation(headerPage) : 0;
                boolean last = intact && headerPage.getAndAddInt(WRITERS_OFFSET, -1) == 1;
                sealing = last && checksummed;
                if (last && !checksummed) {
                    headerPage.getAndOrInt(FLAGS_OFFSET, FLAG_CLEAN_CLOSE);
                }
            }
        } finally {
            arena.close();
            try {
                if (sealing) {
                    // Unmapped first, so that no thread still writing through this region changes the payload
                    // while its checksum is computed.
                    PayloadChecksum.closeLastWriter(attachment.channel(), header, file, generation);
                }
            } finally {
                if (attachment != null) {
                    OpenFileTable.detach(attachment);
                }
            }
        }
        if (fault != null) {
            throw fault;
        }
    }

    private AtomicSegment liveHeader() {
        requireOpen();
        return headerPage;
    }

    private void requireOpen() {
        if (closed.get()) {
            throw new IllegalStateException(SketchFileException.describe(file) + " is closed");
        }
    }

    private void requireWriter() {
        requireOpen();
        if (!mode.isWritable()) {
            throw new IllegalStateException(SketchFileException.describe(file) + " is open READ_ONLY; cannot write");
        }
    }

    /**
     * A check of a freshly mapped file that runs before any other writer can register
     * ({@link SketchRegion#open(Path, OpenMode, SketchKind, OpenCheck)}).
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
         * @throws IOException to refuse the file, typically a {@link SketchFileException} naming it
         */
        void check(SketchRegion region, boolean soleWriter) throws IOException;
    }

    @Override
    public String toString() {
        return "SketchRegion[" + SketchFileException.describe(file) + ", " + mode + ", " + header.kind()
                + ", payload " + header.payloadLength() + " bytes" + (isClosed() ? ", closed" : "") + "]";
    }
}
