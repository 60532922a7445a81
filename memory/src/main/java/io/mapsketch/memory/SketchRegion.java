package io.mapsketch.memory;

import static io.mapsketch.memory.FileFault.Reason.CORRUPT;
import static io.mapsketch.memory.SketchFileLayout.*;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A sketch's live memory: a 4096-byte header page and a 64-byte-aligned payload, mapped from a
 * validated file or allocated off-heap (anonymous), with the header's live counters. Regions are
 * made by {@link SketchRegions}; the layout is drawn in {@link SketchFileLayout}.
 *
 * <p>Concurrency: the payload is shared by every thread and every process that maps the file.
 * {@link RegionMode#SHARED} writers use the atomic operations of {@link #payload()}; the
 * {@link RegionMode#EXCLUSIVE} writer is the only writer and may use plain stores. The live counters
 * follow the same rule ({@link LiveCounters}: they never wrap). Closing while other threads of this
 * process still use the region makes their later accesses throw {@link IllegalStateException}, never
 * crash.
 *
 * <p>Durability: every write lands in the page cache at once and survives the writing process being
 * killed; {@link #force()} makes it survive an operating-system crash or power loss. From format
 * version {@value SketchFileLayout#PAYLOAD_CHECKSUM_VERSION} the header keeps a checksum of the
 * payload, recorded by {@link #force()} and sealed by the last writer's {@link #close()};
 * {@link #verify()} compares the payload with it.
 */
public final class SketchRegion implements AutoCloseable {

    private final Path file;
    private final RegionMode mode;
    private final SketchHeader header;
    private final Arena arena;
    private final AtomicSegment headerPage;
    private final AtomicSegment payload;
    private final AtomicSegment summaryLine;
    private final OpenFileTable.Attachment attachment;
    private final SketchRegions.Registration registration;
    private final RegionCounters counters;

    private final AtomicBoolean closed = new AtomicBoolean();

    SketchRegion(
            Path file,
            RegionMode mode,
            SketchHeader header,
            Arena arena,
            MemorySegment mapping,
            OpenFileTable.Attachment attachment,
            SketchRegions.Registration registration) {
        this.file = file;
        this.mode = mode;
        this.header = header;
        this.arena = arena;
        this.headerPage = new AtomicSegment(mapping.asSlice(0, HEADER_LENGTH));
        this.payload = new AtomicSegment(mapping.asSlice(header.payloadOffset(), header.payloadLength()));
        this.summaryLine = new AtomicSegment(mapping.asSlice(SUMMARY_OFFSET, CACHE_LINE));
        this.attachment = attachment;
        this.registration = registration;
        this.counters = new RegionCounters(file, mode, header, headerPage);
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
    public RegionMode mode() {
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
     * Returns the header's summary line: the 64 bytes at {@link SketchFileLayout#SUMMARY_OFFSET}, outside
     * the header's checksum, laid out by the sketch kind and updated with the rules of {@link #payload()}.
     *
     * @return the summary line with atomic word access
     * @throws IllegalStateException if the file's format version has no summary line
     *     ({@link SketchHeader#hasSummaryLine()}): those bytes are then reserved
     */
    public AtomicSegment summaryLine() {
        if (!header.hasSummaryLine()) {
            throw new IllegalStateException(FileFault.describe(file) + " is of format version " + header.formatVersion()
                    + ", which has no summary line");
        }
        return summaryLine;
    }

    /**
     * Tells whether every writer that opened this file before closed it cleanly: exact for a writer that
     * found no other live writer; a writer that joined others and a reader report the clean-close flag as
     * found, which is also clear while other writers are attached.
     *
     * @return {@code true} if the file was closed cleanly before this open
     */
    public boolean wasCleanlyClosed() {
        return registration.cleanlyClosedBefore();
    }

    /**
     * Returns the writer count this opener found impossible and repaired: a writer that holds the writer
     * lock alone, inside the gate, resets any other count (writers that died without closing, or lost
     * their locks) to itself, logs a warning on the {@code io.mapsketch.memory} logger and reports here
     * what it found.
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
        requireOpen();
        return headerPage.getIntAcquire(WRITERS_OFFSET);
    }

    /**
     * Returns the live counters for this region's {@code EXCLUSIVE} writer to update with plain loads and
     * stores ({@link SoleWriterCounters}); {@link #addItems} and {@link #addWeight} update the same ones.
     * The counter slots' sums, which no other writer changes while this one holds the file, are read once here.
     *
     * @return the counters
     * @throws IllegalStateException if this region is not open as the {@code EXCLUSIVE} writer
     */
    public SoleWriterCounters soleWriterCounters() {
        requireOpen();
        if (mode != RegionMode.EXCLUSIVE) {
            throw new IllegalStateException(FileFault.describe(file) + " is open " + mode
                    + "; only the EXCLUSIVE writer may update the counters with plain stores");
        }
        return counters.soleWriter();
    }

    /**
     * Reads the items-added counter from the live line and, from format version
     * {@value SketchFileLayout#COUNTER_SLOTS_VERSION}, the counter slots in use (acquire loads).
     *
     * @return the number of items recorded by all writers of this file so far, or {@code Long.MAX_VALUE}
     *     once that number reached {@link LiveCounters#LIMIT} (saturated)
     * @throws IllegalStateException if the region is closed
     */
    public long itemsAdded() {
        requireOpen();
        return counters.itemsAdded();
    }

    /**
     * Adds to the items-added counter, saturating at {@link LiveCounters#LIMIT}: atomically for
     * {@code SHARED} writers (in this writer's counter slot where the file has them), with a release store
     * for the {@code EXCLUSIVE} writer.
     *
     * @param delta items added, non-negative
     * @throws IllegalArgumentException if {@code delta} is negative
     * @throws IllegalStateException if the region is closed or read-only
     */
    public void addItems(long delta) {
        requireNonNegative("delta", delta);
        requireWriter();
        counters.addItems(delta);
    }

    /**
     * Subtracts from the items-added counter of a sketch that supports removal: never below zero, and a
     * saturated counter stays saturated (a compare-and-set for {@code SHARED} writers). Files with counter
     * slots (format version {@value SketchFileLayout#COUNTER_SLOTS_VERSION}) take no removals: kinds that
     * remove write format version 4.
     *
     * @param count items removed, non-negative
     * @throws IllegalArgumentException if {@code count} is negative
     * @throws IllegalStateException if the region is closed or read-only, or the file keeps counter slots
     */
    public void removeItems(long count) {
        requireNonNegative("count", count);
        requireWriter();
        counters.removeItems(count);
    }

    /**
     * Reads the total-weight counter from the live line and, from format version
     * {@value SketchFileLayout#COUNTER_SLOTS_VERSION}, the counter slots in use (acquire loads).
     *
     * @return the sum of all weights recorded so far (for example Count-Min's N)
     * @throws IllegalStateException if the region is closed
     */
    public long totalWeight() {
        requireOpen();
        return counters.totalWeight();
    }

    /**
     * Adds to the total-weight counter, or refuses if that would take it past {@link LiveCounters#LIMIT}:
     * atomically for {@code SHARED} writers (in this writer's counter slot where the file has them), with a
     * release store for the {@code EXCLUSIVE} writer.
     *
     * @param delta weight added, non-negative
     * @throws IllegalArgumentException if {@code delta} is negative or would take the total weight past
     *     {@link LiveCounters#LIMIT}; nothing was added
     * @throws IllegalStateException if the region is closed or read-only
     */
    public void addWeight(long delta) {
        requireNonNegative("delta", delta);
        requireWriter();
        counters.addWeight(delta);
    }

    private static void requireNonNegative(String name, long value) {
        if (value < 0) {
            throw new IllegalArgumentException(name + " = " + value + ", must be >= 0");
        }
    }

    /**
     * Makes every write so far durable: records the payload's checksum ({@link #verify()}) and flushes the
     * mapped file to the storage device; no effect on anonymous or read-only regions. A writer first checks
     * that the file still has its length and is the one at its path, and throws without flushing if not.
     *
     * <p>Cost: two {@code stat} calls, one read of the payload for the checksum, then an {@code msync} of
     * the whole mapping; call it at checkpoints, not per update.
     *
     * @throws IllegalStateException if the region is closed
     * @throws UncheckedIOException if the operating system reports a write error, if the checksum cannot
     *     be recorded, or with a {@link FileFault} cause: {@code REPLACED} if another file is at the path now
     *     (or none), {@code CORRUPT} if the file's length changed under the mapping
     */
    public void force() {
        requireOpen();
        if (file != null && mode.isWritable()) {
            try {
                FileFault fault = attachment.changedSince(file, header.fileLength());
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
                    throw new UncheckedIOException(
                            FileFault.describe(file) + ": cannot record the payload's checksum", e);
                }
            }
            headerPage.segment().force();
            payload.segment().force();
        }
    }

    /**
     * Compares the payload with the checksum in the file's header; the {@link PayloadComparison.Finding}
     * says what that proves. Writes nothing, in any mode.
     *
     * <p>Cost: one read of the payload through a mapping of its own (none for an anonymous region or a file
     * without a checksum); opening never reads the payload.
     *
     * @return what the comparison found
     * @throws IllegalStateException if the region is closed
     * @throws IOException if the payload cannot be mapped for reading
     */
    public PayloadComparison verify() throws IOException {
        requireOpen();
        if (file == null) {
            return new PayloadComparison(
                    PayloadComparison.Finding.NOT_PERSISTED, null, 0, 0, header.formatVersion(), 0);
        }
        if (!PayloadChecksum.kept(header)) {
            return new PayloadComparison(
                    PayloadComparison.Finding.NO_CHECKSUM, file, 0, 0, header.formatVersion(), attachedWriters());
        }
        return PayloadChecksum.verify(headerPage, attachment.channel(), header, file);
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
     * Unmaps the region (or frees it, if anonymous); the last writer attached seals the payload's checksum
     * ({@link #verify()}) and records a clean close. Later use of the region or its payload throws
     * {@link IllegalStateException}; a second close does nothing. A writer checks, as {@link #force()} does,
     * that its file is unchanged, and throws after releasing everything if not.
     *
     * <p>Cost: for the last writer of a file with a checksum, one read of the payload.
     *
     * @throws FileFault {@code REPLACED} if another file is at the path now, or none; {@code CORRUPT} if
     *     the file's length changed under the mapping (the header is then left alone)
     * @throws IOException if releasing the file lock or closing the file fails, or the last writer
     *     cannot map the file to seal its checksum
     */
    @Override
    public void close() throws IOException {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        FileFault fault = null;
        boolean sealing = false;
        long generation = 0;
        try {
            if (file != null && mode.isWritable()) {
                fault = attachment.changedSince(file, header.fileLength());
                boolean intact = fault == null || fault.reason() != CORRUPT;
                if (intact) {
                    counters.releaseSlot();
                }
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

    private void requireOpen() {
        if (closed.get()) {
            throw new IllegalStateException(FileFault.describe(file) + " is closed");
        }
    }

    private void requireWriter() {
        requireOpen();
        if (!mode.isWritable()) {
            throw new IllegalStateException(FileFault.describe(file) + " is open READ_ONLY; cannot write");
        }
    }

    @Override
    public String toString() {
        return "SketchRegion[" + FileFault.describe(file) + ", " + mode + ", kind " + header.kindId() + ", payload "
                + header.payloadLength() + " bytes" + (isClosed() ? ", closed" : "") + "]";
    }
}
