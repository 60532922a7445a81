package io.mapsketch.similarity;

import io.mapsketch.IncompatibleSketchException;
import io.mapsketch.internal.HeaderParameter;
import io.mapsketch.internal.KeyHasher;
import io.mapsketch.internal.RegionSketch;
import io.mapsketch.internal.ScratchPool;
import io.mapsketch.memory.SketchRegion;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Objects;

/**
 * The write side of a {@link MinHash} sketch: the adds of every key form and batch to a row, and the
 * merges of a row, another sketch's row or a signature into a row, over the rows' addressing. Every
 * change only lowers slots ({@link MinHashRows}), so concurrent writers compose exactly. Its public
 * methods are {@code MinHash}'s API.
 */
// The mechanics every sketch shares sit in the unexported package.
@SuppressWarnings("exports")
abstract sealed class MinHashWrites extends RegionSketch permits MinHash {

    /** R, the rows. */
    final int rowCount;
    /** k, the slots of a row. */
    final int slots;
    /** How an item's hash becomes the values its slots are offered. */
    final MinHashDerivation derivation;
    /** The rows' slots: how they are lowered, read and compared. */
    final MinHashRows rows;
    /** The hashes of a batch add's keys, as many as one update of a row of this derivation gains from. */
    private final ScratchPool<long[]> batches;

    MinHashWrites(SketchRegion region, MinHashFormat format) {
        super(region);
        this.rowCount = format.rows();
        this.slots = format.signatureLength();
        this.derivation = format.derivation();
        this.rows = new MinHashRows(payload, slots, sharedWriters, derivation);
        int batchKeys =
                derivation == MinHashDerivation.SUPER_MINHASH ? SuperMinHashRow.batchKeys(slots) : KeyHasher.BATCH;
        this.batches = new ScratchPool<>(() -> new long[batchKeys]);
    }

    /**
     * Adds a key, as its {@linkplain io.mapsketch##keys bytes}, to a row's set.
     *
     * @param row the row, in [0, rows)
     * @param key the key
     * @throws IllegalArgumentException if the row is out of range
     * @throws IllegalStateException if the sketch is read-only or closed
     */
    public void add(int row, long key) {
        addHash(row, hasher.hash(key));
    }

    /**
     * Adds the key of the bytes {@code key[offset, offset + length)} to a row's set; as {@link #add(int, long)}.
     *
     * @param row the row, in [0, rows)
     * @param key the array
     * @param offset first byte
     * @param length number of bytes
     * @throws IllegalArgumentException if the row is out of range
     * @throws IndexOutOfBoundsException if the range is outside the array
     * @throws IllegalStateException if the sketch is read-only or closed
     */
    public void add(int row, byte[] key, int offset, int length) {
        addHash(row, hasher.hash(key, offset, length));
    }

    /**
     * Adds the key of a string's UTF-8 bytes to a row's set; as {@link #add(int, long)}.
     *
     * @param row the row, in [0, rows)
     * @param key the characters
     * @throws IllegalArgumentException if the row is out of range
     * @throws IllegalStateException if the sketch is read-only or closed
     */
    public void add(int row, CharSequence key) {
        addHash(row, hasher.hash(key));
    }

    /**
     * Adds the key of the bytes of a segment slice to a row's set; as {@link #add(int, long)}.
     *
     * @param row the row, in [0, rows)
     * @param key the segment
     * @param offset first byte
     * @param length number of bytes
     * @throws IllegalArgumentException if the row is out of range
     * @throws IndexOutOfBoundsException if the range is outside the segment
     * @throws IllegalStateException if the sketch is read-only or closed
     */
    public void add(int row, MemorySegment key, long offset, long length) {
        addHash(row, hasher.hash(key, offset, length));
    }

    /**
     * Adds every key of an array to a row's set, as {@link #add(int, long)} would one by one. Cost:
     * the keys are hashed with the SIMD kernel and the row is updated once per {@value KeyHasher#BATCH}
     * keys (classic derivation), or once per k ln(2k) keys, in [4,096, 65,536] (SuperMinHash, whose steps
     * per key drop as an update holds more keys).
     *
     * @param row the row, in [0, rows)
     * @param keys the keys
     * @throws IllegalArgumentException if the row is out of range
     * @throws IllegalStateException if the sketch is read-only or closed
     */
    public void addAll(int row, long[] keys) {
        long offset = writableRow("row", row);
        long[] hashes = batches.borrow();
        hasher.forEachBatch(keys, hashes, (batch, first, count) -> rows.addAll(offset, batch, count));
        batches.giveBack(hashes);
        countItems(keys.length);
    }

    /**
     * Adds {@code count} keys stored as little-endian 64-bit values in a segment to a row's set; as
     * {@link #addAll(int, long[])}.
     *
     * @param row the row, in [0, rows)
     * @param keys the segment
     * @param offset byte offset of the first key
     * @param count number of keys
     * @throws IllegalArgumentException if the row is out of range
     * @throws IndexOutOfBoundsException if the keys are outside the segment
     * @throws IllegalStateException if the sketch is read-only or closed
     */
    public void addAll(int row, MemorySegment keys, long offset, long count) {
        long rowOffset = writableRow("row", row);
        long[] hashes = batches.borrow();
        hasher.forEachBatch(keys, offset, count, hashes, (batch, first, n) -> rows.addAll(rowOffset, batch, n));
        batches.giveBack(hashes);
        countItems(count);
    }

    private void addHash(int row, long hash) {
        rows.add(writableRow("row", row), hash);
        countItems(1);
    }

    /**
     * Merges another row of this sketch into a row: afterwards {@code dstRow} is, bit for bit, the row
     * of the union of both sets. {@link #itemsAdded()} does not change. Cost: one pass over both rows
     * (the SIMD minimum kernel in {@code EXCLUSIVE} mode, a compare-and-set per lowered slot in
     * {@code SHARED} mode).
     *
     * @param dstRow the row written, in [0, rows)
     * @param srcRow the row read, in [0, rows); may be {@code dstRow} (nothing changes)
     * @throws IllegalArgumentException if a row is out of range
     * @throws IllegalStateException if the sketch is read-only or closed
     */
    public void mergeRow(int dstRow, int srcRow) {
        rows.merge(writableRow("dstRow", dstRow), payload.segment(), rowOffset("srcRow", srcRow), 0, 1);
    }

    /**
     * Merges a row of another sketch into a row of this one: afterwards {@code dstRow} is the row of
     * the union of both sets. The sketches may have different numbers of rows. Cost as
     * {@link #mergeRow(int, int)}.
     *
     * @param dstRow the row written, in [0, rows)
     * @param other a sketch with the same signature length, derivation scheme, hash scheme and seed
     * @param srcRow the other sketch's row, in [0, other.rows())
     * @throws IncompatibleSketchException naming the parameter that differs
     * @throws IllegalArgumentException if a row is out of range
     * @throws IllegalStateException if this sketch is read-only or either is closed
     */
    public void mergeRow(int dstRow, MinHash other, int srcRow) {
        requireCompatible(other, MinHashFormat.ROW_SHAPE);
        rows.merge(writableRow("dstRow", dstRow), other.payload.segment(), other.rowOffset("srcRow", srcRow), 0, 1);
    }

    /**
     * Merges a signature into a row: afterwards the row is the row of the union of its set and the
     * signature's. Cost as {@link #mergeRow(int, int)}.
     *
     * @param dstRow the row written, in [0, rows)
     * @param signature a signature of this sketch's derivation, length and seed
     * @throws IncompatibleSketchException if the derivation, the length or the seed differ
     * @throws IllegalArgumentException if the row is out of range
     * @throws IllegalStateException if the sketch is read-only or closed
     */
    public void mergeRow(int dstRow, MinHashSignature signature) {
        requireCompatible(signature);
        rows.merge(writableRow("dstRow", dstRow), signature.slots());
    }

    /** Refuses a sketch of another derivation, naming both, then of another shape, scheme or seed. */
    final void requireCompatible(MinHash other, List<HeaderParameter> shape) {
        Objects.requireNonNull(other, "other");
        if (other.derivation != derivation) {
            throw new IncompatibleSketchException("derivation scheme", derivation, other.derivation);
        }
        requireCompatible((RegionSketch) other, shape);
    }

    /** Refuses a signature of another derivation, length or seed. */
    final void requireCompatible(MinHashSignature signature) {
        Objects.requireNonNull(signature, "signature");
        if (signature.derivation() != derivation) {
            throw new IncompatibleSketchException("derivation scheme", derivation, signature.derivation());
        }
        if (signature.length() != slots) {
            throw new IncompatibleSketchException("signature length", slots, signature.length());
        }
        if (signature.hashSeed() != hashSeed()) {
            throw new IncompatibleSketchException("hash seed", hashSeed(), signature.hashSeed());
        }
    }

    /** The byte offset of a row that is about to change: checks writability, then the row. */
    final long writableRow(String name, int row) {
        requireWritable();
        return rowOffset(name, row);
    }

    /** The byte offset of a row, once {@code row} is checked against R; {@code name} names it in the error. */
    final long rowOffset(String name, int row) {
        if (row < 0 || row >= rowCount) {
            throw new IllegalArgumentException(name + " = " + row + ", must be in [0, " + rowCount + ")");
        }
        return rows.offset(row);
    }
}
