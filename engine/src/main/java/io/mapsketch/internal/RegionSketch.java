package io.mapsketch.internal;

import io.mapsketch.CreateOption;
import io.mapsketch.IncompatibleSketchException;
import io.mapsketch.IncompatibleSketchFileException;
import io.mapsketch.OpenMode;
import io.mapsketch.PayloadVerification;
import io.mapsketch.Sketch;
import io.mapsketch.SketchKind;
import io.mapsketch.memory.AtomicSegment;
import io.mapsketch.memory.LiveCounters;
import io.mapsketch.memory.RegionMode;
import io.mapsketch.memory.SketchHeader;
import io.mapsketch.memory.SketchRegion;
import io.mapsketch.memory.SketchRegions;
import io.mapsketch.memory.SoleWriterCounters;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The mechanics every sketch shares: its region, key hashing with the header's seed, the live
 * counters, its header parameters (its kind's {@link HeaderFormat}) and the compatibility check before a merge.
 */
public abstract class RegionSketch implements Sketch {

    protected final SketchRegion region;
    protected final AtomicSegment payload;
    private final SketchKind kind;
    protected final KeyHasher hasher;
    /** Updates must be hardware atomics: other writers may update the same words concurrently. */
    protected final boolean sharedWriters;

    protected final boolean readOnly;
    /** The header's counters as the {@code EXCLUSIVE} writer updates them, plainly; {@code null} in other modes. */
    private final SoleWriterCounters soleCounters;

    protected RegionSketch(SketchRegion region) {
        this.region = region;
        this.payload = region.payload();
        this.kind = Regions.kind(region.header());
        this.hasher = KeyHasher.of(region.header().hashScheme(), region.header().hashSeed());
        this.sharedWriters = region.mode() == RegionMode.SHARED;
        this.readOnly = region.mode() == RegionMode.READ_ONLY;
        this.soleCounters = region.mode() == RegionMode.EXCLUSIVE ? region.soleWriterCounters() : null;
    }

    @Override
    public SketchKind kind() {
        return kind;
    }

    @Override
    public OpenMode mode() {
        return Regions.openMode(region);
    }

    @Override
    public Optional<Path> file() {
        return region.file();
    }

    @Override
    public long hashSeed() {
        return region.header().hashSeed();
    }

    @Override
    public long itemsAdded() {
        return region.itemsAdded();
    }

    @Override
    public int attachedWriters() {
        return region.attachedWriters();
    }

    @Override
    public long memoryBytes() {
        return region.header().payloadLength();
    }

    @Override
    public void force() {
        Regions.force(region);
    }

    @Override
    public PayloadVerification verify() throws IOException {
        return Regions.verify(region);
    }

    @Override
    public boolean isClosed() {
        return region.isClosed();
    }

    @Override
    public void close() throws IOException {
        Regions.close(region);
    }

    /**
     * Tells whether the file was closed cleanly by every writer before this open.
     *
     * @return {@code false} if a writer died while it had the file open
     */
    public boolean wasCleanlyClosed() {
        return region.wasCleanlyClosed();
    }

    /**
     * Refuses an answer array, named {@code name}, shorter than the {@code keys} keys of a batch query,
     * before anything is read.
     */
    protected static void requireAnswerRoom(String name, int length, int keys) {
        if (length < keys) {
            throw new IllegalArgumentException(name + ".length = " + length + ", must be >= keys.length = " + keys);
        }
    }

    /** Throws a clear error before a write to a read-only sketch touches memory. */
    protected final void requireWritable() {
        if (readOnly) {
            throw new IllegalStateException(
                    describe() + " is open READ_ONLY; open it SHARED or EXCLUSIVE to update it");
        }
    }

    /**
     * Counts items added (negative: removed) in the file's counter at once: shared writers
     * atomically, the exclusive writer with a plain load and store ({@link SoleWriterCounters}), so
     * that a caller's loop of single-key adds compiles with no fence, locked instruction or call in it.
     * The counter saturates and never goes below zero ({@link LiveCounters}).
     */
    protected final void countItems(long items) {
        if (!sharedWriters) {
            soleCounters.addItems(items);
        } else if (items >= 0) {
            region.addItems(items);
        } else {
            region.removeItems(-items);
        }
    }

    /**
     * Takes {@code weight} (the sum of counts of a frequency sketch's update) into the total weight
     * before the update it counts is made, or refuses the update, naming {@code name}, if the total
     * would pass {@link LiveCounters#LIMIT}. Shared writers add it to the file's counter here,
     * atomically, so that concurrent updates cannot pass the limit together; the exclusive writer
     * only checks here and stores it with the items in {@link #countAdmitted}.
     */
    protected final void admitWeight(long weight, String name) {
        if (sharedWriters) {
            try {
                region.addWeight(weight);
            } catch (IllegalArgumentException refused) {
                throw weightRefused(weight, name);
            }
        } else if (weight > soleCounters.weightRoom()) {
            throw weightRefused(weight, name);
        }
    }

    private IllegalArgumentException weightRefused(long weight, String name) {
        return new IllegalArgumentException(name + " = " + weight + " would take the total weight N = " + weightAdded()
                + " past " + LiveCounters.LIMIT + " (2^63 - 2^55 - 1); nothing was added");
    }

    /**
     * Counts the items of an update whose weight {@link #admitWeight} took: for shared writers the
     * items only (their weight is in the file already), for the exclusive writer both, in one call.
     */
    protected final void countAdmitted(long items, long weight) {
        if (sharedWriters) {
            region.addItems(items);
        } else {
            soleCounters.addItemsAndWeight(items, weight);
        }
    }

    /**
     * Returns the total weight: the file's counter, which the {@code EXCLUSIVE} writer answers from the
     * copy it keeps (no other writer changes it while it holds the file).
     */
    protected final long weightAdded() {
        return sharedWriters || readOnly ? region.totalWeight() : soleCounters.weight();
    }

    /**
     * Returns the sketch's header parameters as its kind's format description decoded them on open.
     *
     * @return the description
     */
    protected abstract HeaderFormat format();

    /**
     * Refuses to combine with a sketch of another kind, hash scheme or seed, or whose header
     * parameters {@code shape} of the kind's description differ, naming the first that does.
     */
    protected final void requireCompatible(RegionSketch other, List<? extends HeaderParameter> shape) {
        SketchHeader mine = region.header();
        SketchHeader theirs = other.region.header();
        if (kind != other.kind) {
            throw new IncompatibleSketchException("kind", kind, other.kind);
        }
        if (mine.hashScheme() != theirs.hashScheme()) {
            throw new IncompatibleSketchException("hash scheme", mine.hashScheme(), theirs.hashScheme());
        }
        if (mine.hashSeed() != theirs.hashSeed()) {
            throw new IncompatibleSketchException("hash seed", mine.hashSeed(), theirs.hashSeed());
        }
        format().requireSame(other.format(), shape);
    }

    /**
     * Adds the figures {@code mapsketch info} shows for this sketch (its shape, error and estimates), name
     * to value, in the order to show them ({@link SketchFacts#of}). Cost: what the figures cost, up to a
     * pass over the payload.
     */
    protected void putFigures(Map<String, Object> figures) {
        figures.put("memory bytes", memoryBytes());
    }

    /**
     * Settles the summary line of an image of this sketch ({@link io.mapsketch.SketchImage}), given the image's
     * payload: writes it as the state of the payload alone, without what records the line's history, so that
     * equal states give equal images. Nothing unless a kind keeps such a record.
     */
    protected void settleImageSummaryLine(MemorySegment line, MemorySegment payload) {}

    /**
     * Returns the value of every payload byte of an empty sketch of this kind: zero unless the kind says
     * otherwise (its builder fills a new file with the same byte).
     */
    protected byte emptyPayloadFill() {
        return 0;
    }

    /**
     * Creates an empty sketch in a new file that merges with this one: the same kind, header parameters,
     * hash scheme and seed, in the format version this build writes ({@link SketchFacts#createEmptyLike}).
     */
    protected Sketch createEmptyLike(Path file, OpenMode mode, CreateOption... options) throws IOException {
        HeaderFormat format = format();
        SketchHeader mine = region.header();
        SketchHeader header = SketchHeader.forNewSketch(
                        format.kind().id(), mine.hashScheme(), mine.hashSeed(), format.encode(), format.payloadBytes())
                .withFormatVersion(format.versions().written());
        Regions.close(Regions.create(file, header, emptyPayloadFill(), mode, options));
        return Sketch.open(file, mode);
    }

    protected final String describe() {
        return region.file().map(f -> "sketch file " + f).orElse("anonymous " + kind() + " sketch");
    }

    /**
     * A sketch file image that the kinds' {@code open} methods, called within its binding, read instead of the
     * file at their path; the path then only names the image in messages ({@link SketchOpener#openImage}). So
     * an image is validated and refused exactly as its kind refuses a file.
     */
    static final ScopedValue<MemorySegment> IMAGE = ScopedValue.newInstance();

    /** Reads a sketch from a region, validating its parameters; may refuse the file. */
    @FunctionalInterface
    protected interface RegionReader<S> {
        S read(SketchRegion region) throws IOException;
    }

    /**
     * Opens a file of one kind and hands it to the reader; the region is closed if the reader refuses it,
     * or if the sketch's parameters cannot run the header's hash scheme ({@link HeaderFormat#schemeRefusal}).
     */
    protected static <S extends RegionSketch> S open(Path file, OpenMode mode, SketchKind kind, RegionReader<S> reader)
            throws IOException {
        return open(file, mode, kind, null, reader);
    }

    /**
     * Opens a file of one kind, runs {@code check} before another writer can register (see
     * {@link Regions#open(Path, OpenMode, SketchKind, SketchRegions.OpenCheck)}), and hands the
     * region to the reader; the region is closed if the check or the reader refuses it.
     */
    protected static <S extends RegionSketch> S open(
            Path file, OpenMode mode, SketchKind kind, SketchRegions.OpenCheck check, RegionReader<S> reader)
            throws IOException {
        SketchRegion region;
        if (IMAGE.isBound()) {
            region = Regions.openImage(IMAGE.get(), file, mode, kind);
            if (check != null) {
                try {
                    check.check(region, mode != OpenMode.READ_ONLY);
                } catch (IOException | RuntimeException e) {
                    Regions.close(region);
                    throw e;
                }
            }
        } else {
            region = Regions.open(file, mode, kind, check);
        }
        S sketch;
        try {
            sketch = reader.read(region);
        } catch (IOException | RuntimeException e) {
            Regions.close(region);
            throw e;
        }
        String refusal = sketch.format().schemeRefusal(region.header().hashScheme());
        if (refusal != null) {
            IncompatibleSketchFileException refused = new IncompatibleSketchFileException(
                    file,
                    "header field 'hash scheme' is " + region.header().hashScheme() + ", which a " + kind
                            + " of these parameters cannot run: " + refusal);
            try {
                sketch.close();
            } catch (IOException | RuntimeException suppressed) {
                refused.addSuppressed(suppressed);
            }
            throw refused;
        }
        return sketch;
    }
}
