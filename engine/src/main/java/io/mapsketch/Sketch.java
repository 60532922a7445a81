package io.mapsketch;

import io.mapsketch.internal.SketchOpener;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * What every mapsketch sketch answers about itself: where it lives, how it was opened, how much
 * it holds and how much memory it takes. Each sketch states its error in its own terms next to
 * these ({@code expectedFalsePositiveRate()}, {@code errorBound()}, {@code relativeStandardError()}).
 *
 * <p>A sketch is open until {@link #close()}; afterwards every method except {@link #isClosed()},
 * {@link #kind()}, {@link #mode()}, {@link #file()} and {@link #memoryBytes()} throws
 * {@link IllegalStateException}.
 */
public interface Sketch extends AutoCloseable {

    /**
     * Opens a sketch file of any kind as the kind its header names: a classic, blocked or counting
     * Bloom filter, a cuckoo filter, a Count-Min or Top-K sketch, a HyperLogLog or a HyperLogLog table, a MinHash or a
     * SimHash table; a directory is a scalable Bloom filter. The file is validated and refused exactly
     * as that kind's own {@code open} does it ({@link io.mapsketch.membership.BloomFilter#open(Path,
     * OpenMode)} and the like), and every parameter comes from the header. The result is of the kind's
     * class; {@link Mergeable#mergeSketch} merges it without knowing that class.
     *
     * <p>Cost: the header is read twice, read-only to learn the kind, then by the kind's {@code open}.
     *
     * @param path a sketch file, or a scalable Bloom filter's directory
     * @param mode read-only, shared writer or exclusive writer
     * @return the open sketch
     * @throws io.mapsketch.IncompatibleSketchFileException if the kind is unknown to this build,
     *     or the file is a scalable Bloom filter's manifest (open its directory)
     * @throws io.mapsketch.SketchFileException if the file is not a valid sketch of its kind, or
     *     is locked against this mode
     * @throws java.nio.file.NoSuchFileException if there is no such file
     * @throws IOException if the file cannot be read
     */
    static Sketch open(Path path, OpenMode mode) throws IOException {
        return SketchOpener.open(
                path,
                mode,
                Sketch.class,
                "a kind stored in one file (a scalable Bloom filter opens from its directory)");
    }

    /**
     * Returns the sketch's kind, as stored in its file header.
     *
     * @return the kind
     */
    SketchKind kind();

    /**
     * Returns how this sketch was opened: read-only, one of several shared writers, or the
     * exclusive writer.
     *
     * @return the open mode
     */
    OpenMode mode();

    /**
     * Returns the file the sketch is mapped from.
     *
     * @return the file, or empty for an anonymous (off-heap, not persisted) sketch
     */
    Optional<Path> file();

    /**
     * Returns the hash seed stored in the header; every process that opens the file hashes with it.
     *
     * @return the seed
     */
    long hashSeed();

    /**
     * Returns how many items all writers of this sketch, in every process, have added (each call to
     * an add method counts its items, repeats included). Every writer counts in the file at once:
     * {@code SHARED} writers atomically, the {@code EXCLUSIVE} writer with a plain store, which other
     * processes see promptly though not ordered with its payload stores. The count saturates, never
     * wraps: from 2^63 - 2^55 - 1 on it is {@code Long.MAX_VALUE}, merges included. Cost: one acquire
     * load.
     *
     * @return the items added so far, or {@code Long.MAX_VALUE} once saturated
     */
    long itemsAdded();

    /**
     * Returns how many writers have the sketch's file open, in every process (this sketch included when it
     * is a writer), plus any that died while open since the last sole writer opened it: a count that stays
     * above the live writers means a writer died, and the next sole writer repairs it. Cost: one acquire
     * load.
     *
     * @return writers registered in the file (for a scalable Bloom filter, in its manifest); 0 for an
     *     anonymous sketch
     * @throws IllegalStateException if the sketch is closed
     */
    int attachedWriters();

    /**
     * Returns the size of the sketch's state: the payload in bytes, without the 4096-byte header.
     *
     * @return bytes of sketch memory
     */
    long memoryBytes();

    /**
     * Makes every update so far durable on the storage device and records the payload's checksum
     * ({@link #verify()}). Cost: one read of the payload and an {@code msync} of the mapping; call it
     * at checkpoints. No effect on anonymous or read-only sketches.
     */
    void force();

    /**
     * Compares the sketch's payload with the checksum in its file's header, which the last writer's clean
     * close seals and {@link #force()} records: {@code OK}, {@code CORRUPT} naming the first payload range
     * that does not match, {@code STALE_...} when writers are attached or the file was not closed cleanly
     * since the checksum was recorded, {@code NO_CHECKSUM} for files of format versions before 4 and
     * {@code NOT_PERSISTED} for an anonymous sketch ({@link PayloadVerification}). Writes nothing.
     * Cost: one read of the payload; opening a sketch never reads it.
     *
     * @return what the comparison found (for a sketch of several files, the worst of them)
     * @throws IOException if the payload cannot be mapped for reading
     */
    PayloadVerification verify() throws IOException;

    /**
     * Tells whether this sketch has been closed.
     *
     * @return {@code true} after {@link #close()}
     */
    boolean isClosed();

    /**
     * Unmaps (or frees) the sketch and releases its file lock. Idempotent.
     *
     * @throws IOException if the file lock cannot be released
     */
    @Override
    void close() throws IOException;
}
