package io.mapsketch.similarity;

import io.mapsketch.CorruptSketchFileException;
import io.mapsketch.IncompatibleSketchException;
import io.mapsketch.Mergeable;
import io.mapsketch.OpenMode;
import io.mapsketch.SketchBuilder;
import io.mapsketch.SketchKind;
import io.mapsketch.internal.HeaderReader;
import io.mapsketch.internal.KeyHasher;
import io.mapsketch.kernels.MinHashKernels;
import io.mapsketch.kernels.RegisterKernels;
import io.mapsketch.memory.SketchRegion;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * MinHash: "how similar are sets A and B?" as the Jaccard similarity {@code |A ∩ B| / |A ∪ B|}, for
 * many sets at once. The sketch is a table of R rows, one set each, and each row is a signature of
 * k 64-bit slots: slot s keeps the unsigned minimum of the values the XXH3-64 hashes h of the row's
 * items offer it, by the sketch's {@link MinHashDerivation} (SuperMinHash by default; the classic
 * {@link MinHashKernels#derive(long, int) derive(h, s)} in files of format versions 1 to 4; the
 * derivation is part of the file format, drawn in {@code docs/file-format.md}). An empty row has every
 * slot at {@link MinHashSignature#EMPTY_SLOT}, the largest unsigned value.
 *
 * <p>Error direction: both ways. {@link #jaccard} is the fraction of equal slots, an unbiased
 * estimate whose standard deviation is at most {@code sqrt(J (1 - J) / k)} (the classic
 * derivation's; SuperMinHash's is lower for sets of fewer items than about k); {@link #standardError()} states
 * the conservative {@code 1 / sqrt(k)} the builder sizes k from (k = 400 for 0.05). Two empty rows
 * have similarity 1, an empty and a non-empty row 0. Adding an item again never changes a row, and
 * merging two rows (slot-wise minimum) gives exactly the row of the union of their sets.
 *
 * <p>Keys arrive in {@linkplain io.mapsketch##keys every key form}, and the same bytes are the same
 * item in any form.
 *
 * <p>Concurrency: a {@code SHARED} writer lowers each slot with a compare-and-set of its 64-bit word,
 * retried only while the slot is still above the new value, so any number of threads and processes
 * adding and merging at once leave the rows bit for bit as sequential calls would (minimum is
 * commutative and idempotent). The {@code EXCLUSIVE} writer updates rows with the SIMD kernels and
 * plain stores, and takes adds from one thread at a time. Readers may compare while writers add: each
 * slot is read whole, at some value it held during the call.
 *
 * <p>Cost: an add hashes the key once; SuperMinHash then reads the row's k slots for the bound of its
 * steps and takes about one or two steps in a row of many items, the classic derivation derives k
 * values (about ten vector operations per eight slots). A batch add hashes the keys with the SIMD
 * kernel and updates the row once per {@value KeyHasher#BATCH} keys (classic), or once per k ln(2k)
 * keys, at least 4,096 (SuperMinHash: a set that arrives in one update costs the fewest steps). In {@code SHARED} mode the
 * update runs on a copy of the row, whose lowered slots then go into the row by compare-and-set. A comparison reads 2k slots; a
 * {@link #mostSimilar} query reads the whole table once. Memory: R rows of {@code ceil(8 k / 64) * 64}
 * bytes.
 */
// The mechanics every sketch shares sit in the unexported package; their public methods are this type's.
@SuppressWarnings("exports")
public final class MinHash extends MinHashWrites implements Mergeable<MinHash> {

    /** The most rows a sketch may have. */
    public static final int MAX_ROWS = Integer.MAX_VALUE;

    private final MinHashFormat format;

    private MinHash(SketchRegion region, MinHashFormat format) {
        super(region, format);
        this.format = format;
    }

    /**
     * Starts a builder; the signature length (or standard error) is required, rows default to 1.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Opens a MinHash file; rows, signature length and derivation scheme come from its header.
     * Cost: the header checks only; no row is read.
     *
     * @param file the sketch file
     * @param mode read-only, shared writer or exclusive writer
     * @return the open sketch
     * @throws CorruptSketchFileException if a parameter is out of range or the payload is not the size
     *     they imply
     * @throws io.mapsketch.SketchFileException if the file is not a valid MinHash file or is
     *     locked against this mode
     * @throws IOException if the file cannot be read
     */
    public static MinHash open(Path file, OpenMode mode) throws IOException {
        return open(file, mode, SketchKind.MINHASH, MinHash::read);
    }

    private static MinHash read(SketchRegion region) throws IOException {
        return new MinHash(region, MinHashFormat.read(HeaderReader.of(region)));
    }

    @Override
    protected MinHashFormat format() {
        return format;
    }

    /**
     * Merges every row of another sketch into the same row of this one: afterwards each row is, bit
     * for bit, the row of the union of both sets, and {@link #itemsAdded()} has grown by the other's.
     * Cost: one pass over both tables (in {@code EXCLUSIVE} mode a single SIMD minimum over the whole
     * payload).
     *
     * @param other a sketch with the same derivation, rows, signature length, hash scheme and seed;
     *     not modified
     * @throws IncompatibleSketchException naming the parameter that differs
     * @throws IllegalStateException if this sketch is read-only or either is closed
     */
    @Override
    public void merge(MinHash other) {
        requireWritable();
        requireMergeable(other);
        if (sharedWriters) {
            rows.merge(0, other.payload.segment(), 0, MinHashRows.stride(slots), rowCount);
        } else {
            RegisterKernels.minUnsignedLongs(
                    payload.segment(), 0, other.payload.segment(), 0, payload.byteSize() / Long.BYTES);
        }
        countItems(other.itemsAdded());
    }

    /** The derivation, rows, signature length, hash scheme and seed, as {@link #merge} takes them. */
    @Override
    public void requireMergeable(MinHash other) {
        requireCompatible(other, MinHashFormat.SHAPE);
    }

    /**
     * Copies a row's signature out of the sketch. Cost: k slots read and allocated.
     *
     * @param row the row, in [0, rows)
     * @return the row's signature, with this sketch's derivation and seed
     * @throws IllegalArgumentException if the row is out of range
     * @throws IllegalStateException if the sketch is closed
     */
    public MinHashSignature signature(int row) {
        long offset = rowOffset("row", row);
        return MinHashSignature.wrap(rows.toArray(offset), hashSeed(), derivation);
    }

    /**
     * Tells whether a row's set is empty (every slot {@link MinHashSignature#EMPTY_SLOT}).
     *
     * @param row the row, in [0, rows)
     * @return {@code true} if nothing was added to or merged into the row
     * @throws IllegalArgumentException if the row is out of range
     * @throws IllegalStateException if the sketch is closed
     */
    public boolean isEmpty(int row) {
        return rows.isEmpty(rowOffset("row", row));
    }

    /**
     * Estimates the Jaccard similarity of two rows' sets: the fraction of equal slots, unbiased with
     * standard deviation {@code sqrt(J (1 - J) / k)}; 1 for two empty rows. Cost: one pass of the
     * equal-slot kernel over both rows.
     *
     * @param rowA a row, in [0, rows)
     * @param rowB a row, in [0, rows)
     * @return the estimate, in [0, 1]
     * @throws IllegalArgumentException if a row is out of range
     * @throws IllegalStateException if the sketch is closed
     */
    public double jaccard(int rowA, int rowB) {
        return (double) rows.countEqual(rowOffset("rowA", rowA), rowOffset("rowB", rowB)) / slots;
    }

    /**
     * Estimates the Jaccard similarity of a row's set and a signature's, as {@link #jaccard(int, int)}.
     *
     * @param row a row, in [0, rows)
     * @param signature a signature of this sketch's derivation, length and seed
     * @return the estimate, in [0, 1]
     * @throws IncompatibleSketchException if the derivation, the length or the seed differ
     * @throws IllegalArgumentException if the row is out of range
     * @throws IllegalStateException if the sketch is closed
     */
    public double jaccard(int row, MinHashSignature signature) {
        requireCompatible(signature);
        return (double) rows.countEqual(rowOffset("row", row), signature.slots()) / slots;
    }

    /**
     * Finds the {@code n} rows most similar to a signature: the rows with the largest Jaccard
     * estimate, best first, ties broken by the lower row index. Every row takes part, empty ones
     * included (an empty row scores 0 against a non-empty signature, 1 against an empty one).
     *
     * <p>Cost: one pass over the whole table with the equal-slot kernel (R k slot compares, reading
     * R rows of {@code ceil(8 k / 64) * 64} bytes), plus {@code O(R log n)} for the ranking.
     *
     * @param signature the query, of this sketch's derivation, length and seed
     * @param n how many rows to return, at least 1; all rows if n exceeds them
     * @return {@code min(n, rows)} matches, best first
     * @throws IncompatibleSketchException if the derivation, the length or the seed differ
     * @throws IllegalArgumentException if n is less than 1
     * @throws IllegalStateException if the sketch is closed
     */
    public List<Match> mostSimilar(MinHashSignature signature, int n) {
        requireCompatible(signature);
        if (n < 1) {
            throw new IllegalArgumentException("n = " + n + ", must be >= 1");
        }
        return rows.mostSimilar(signature.slots(), rowCount, Math.min(n, rowCount));
    }

    /**
     * A row found by {@link #mostSimilar}.
     *
     * @param row the row index
     * @param jaccard the estimated Jaccard similarity of the row's set and the query's
     */
    public record Match(int row, double jaccard) {}

    /**
     * Returns the number of rows (sets) R.
     *
     * @return R, at least 1
     */
    public int rows() {
        return rowCount;
    }

    /**
     * Returns the signature length k, the number of slots per row.
     *
     * @return k, in [1, {@value MinHashSizing#MAX_SLOTS}]
     */
    public int signatureLength() {
        return slots;
    }

    /**
     * Returns how the sketch derives the values of its slots, as its header records.
     *
     * @return the derivation
     */
    public MinHashDerivation derivation() {
        return derivation;
    }

    /**
     * Returns the standard error the sketch promises for its Jaccard estimates, {@code 1 / sqrt(k)}:
     * at least twice the true standard deviation {@code sqrt(J (1 - J) / k)}, which is largest, at
     * {@code 1 / (2 sqrt(k))}, for J = 0.5.
     *
     * @return the standard error
     */
    public double standardError() {
        return MinHashSizing.standardError(slots);
    }

    /** A minimum of slots: merging the same sketch again changes nothing. */
    @Override
    public boolean mergeIsIdempotent() {
        return true;
    }

    /** Rows, signature length, memory and the standard error of a Jaccard estimate. */
    @Override
    protected void putFigures(Map<String, Object> figures) {
        figures.put("rows", rows());
        figures.put("signature length", signatureLength());
        figures.put("derivation", derivation.name());
        super.putFigures(figures);
        figures.put("standard error", standardError());
    }

    @Override
    protected byte emptyPayloadFill() {
        return (byte) MinHashSignature.EMPTY_SLOT;
    }

    @Override
    public String toString() {
        return "MinHash[" + describe() + ", " + rowCount + " rows of " + slots + " slots, " + itemsAdded() + " items]";
    }

    /** Builds a MinHash sketch from its rows and its signature length or wanted standard error. */
    public static final class Builder extends SketchBuilder<Builder, MinHash> {

        private int rows = 1;
        private int slots;
        private MinHashDerivation derivation = MinHashDerivation.SUPER_MINHASH;

        private Builder() {}

        /**
         * Sets the number of rows, one set each. Default 1.
         *
         * @param rows R, in [1, 2^31 - 1]
         * @return this builder
         * @throws IllegalArgumentException if out of range
         */
        public Builder rows(int rows) {
            if (rows < 1) {
                throw new IllegalArgumentException("rows = " + rows + ", must be in [1, " + MAX_ROWS + "]");
            }
            this.rows = rows;
            return this;
        }

        /**
         * Sets the signature length k directly. This or {@link #standardError} is required.
         *
         * @param slots k, in [1, {@value MinHashSizing#MAX_SLOTS}]
         * @return this builder
         * @throws IllegalArgumentException if out of range
         */
        public Builder signatureLength(int slots) {
            if (slots < 1 || slots > MinHashSizing.MAX_SLOTS) {
                throw new IllegalArgumentException(
                        "signatureLength = " + slots + ", must be in [1, " + MinHashSizing.MAX_SLOTS + "]");
            }
            this.slots = slots;
            return this;
        }

        /**
         * Sets the signature length from the wanted standard error e of the Jaccard estimates:
         * {@code k = ceil(1 / e^2)} (0.05 gives 400 slots, 3,200 bytes per row).
         *
         * @param standardError e, in [1/256, 1]
         * @return this builder
         * @throws IllegalArgumentException if out of range
         */
        public Builder standardError(double standardError) {
            this.slots = MinHashSizing.slots(standardError);
            return this;
        }

        /**
         * Sets how items' hashes become slot values. Default {@link MinHashDerivation#SUPER_MINHASH};
         * {@link MinHashDerivation#CLASSIC} makes signatures that compare with those of format
         * versions 1 to 4.
         *
         * @param derivation the derivation
         * @return this builder
         */
        public Builder derivation(MinHashDerivation derivation) {
            this.derivation = Objects.requireNonNull(derivation, "derivation");
            return this;
        }

        @Override
        protected Builder self() {
            return this;
        }

        @Override
        protected MinHashFormat format() {
            requireSet("signature length (or standard error)", slots != 0);
            return new MinHashFormat(slots, rows, derivation);
        }

        @Override
        protected byte payloadFill() {
            return (byte) MinHashSignature.EMPTY_SLOT;
        }

        @Override
        protected MinHash wrap(SketchRegion region) throws IOException {
            return read(region);
        }
    }
}
