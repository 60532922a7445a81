package io.mapsketch.cardinality;

import io.mapsketch.CorruptSketchFileException;
import io.mapsketch.internal.KeyIndex;
import io.mapsketch.internal.RegionSketch;
import io.mapsketch.internal.TableHeap;
import io.mapsketch.internal.Utf8;
import io.mapsketch.memory.AtomicSegment;
import io.mapsketch.memory.SketchRegion;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The read side of a {@link HyperLogLogTable}, its package-private base: the views of its payload (the key
 * index, the heap, the keys' registers), the checks on open, the estimates, the keys and the figures.
 */
// The mechanics every sketch shares sit in the unexported package; their public methods are the table's.
@SuppressWarnings("exports")
abstract sealed class HyperLogLogTableReads extends RegionSketch permits HyperLogLogTable {

    final HyperLogLogTableFormat format;
    final int precision;
    final TableHeap heap;
    final KeyIndex index;
    final TableRegisters registers;

    HyperLogLogTableReads(SketchRegion region, HyperLogLogTableFormat format) {
        super(region);
        this.format = format;
        this.precision = format.precision();
        MemorySegment bytes = payload.segment();
        AtomicSegment line = new AtomicSegment(bytes.asSlice(0, HyperLogLogTableFormat.LINE_BYTES));
        AtomicSegment slots =
                new AtomicSegment(bytes.asSlice(HyperLogLogTableFormat.LINE_BYTES, format.slots() * Long.BYTES));
        this.heap = new TableHeap(
                line, new AtomicSegment(bytes.asSlice(format.heapOffset(), format.heapBytes())), describe());
        this.index = new KeyIndex(line, slots, format.capacity(), heap, TableRegisters.VALUE_BYTES, hasher, describe());
        this.registers = new TableRegisters(heap, precision, sharedWriters);
    }

    final void validate() throws CorruptSketchFileException {
        Path file = region.file().orElse(null);
        index.validate(file);
        byte[] seen = new byte[1 << precision];
        List<Long> records = new ArrayList<>();
        index.forEach(records::add);
        for (long record : records) {
            registers.validate(record, seen, file, "at heap offset " + record);
        }
    }

    @Override
    protected HyperLogLogTableFormat format() {
        return format;
    }

    /**
     * Estimates the distinct items added to a key: {@link HyperLogLog#estimate()} of the key's registers.
     *
     * @param key the key's UTF-8 bytes are looked up
     * @return the estimate, 0 for a key not in the table
     * @throws IllegalStateException if the table is closed
     */
    public double estimate(CharSequence key) {
        return estimateUnion(List.of(key));
    }

    /**
     * Estimates the distinct items added to a key of bytes; as {@link #estimate(CharSequence)}.
     *
     * @param key the array holding the key's bytes
     * @param offset the key's first byte
     * @param length the key's byte count
     * @return the estimate, 0 for a key not in the table
     */
    public double estimate(byte[] key, int offset, int length) {
        long record = index.find(MemorySegment.ofArray(key), offset, length);
        return record < 0 ? 0 : registers.estimate(record, describe());
    }

    /**
     * Estimates the distinct items added to any of several keys (as {@code PFCOUNT} of several keys): the
     * estimate of the register-wise maximum of their registers. Keys not in the table add nothing.
     * Cost: for one sparse key its entries; else a heap scratch of 2^p bytes, each key gathered into it.
     *
     * @param keys the keys, as their UTF-8 bytes
     * @return the estimate of the union
     * @throws IllegalStateException if the table is closed
     */
    public double estimateUnion(List<? extends CharSequence> keys) {
        List<byte[]> bytes = keys.stream().map(Utf8::bytes).toList();
        return estimateUnionOfBytes(bytes);
    }

    /**
     * Estimates the union of keys of bytes; as {@link #estimateUnion(List)}.
     *
     * @param keys each key's bytes
     * @return the estimate of the union
     */
    public double estimateUnionOfBytes(List<byte[]> keys) {
        if (keys.size() == 1) {
            return estimate(keys.getFirst(), 0, keys.getFirst().length);
        }
        MemorySegment union = MemorySegment.ofArray(new byte[1 << precision]);
        for (byte[] key : keys) {
            long record = index.find(MemorySegment.ofArray(key), 0, key.length);
            if (record >= 0) {
                registers.gather(record, union);
            }
        }
        return registers.estimate(HyperLogLogEstimates.summary(union, precision, registers.top()), describe());
    }

    /**
     * Tells whether a key is in the table (an item was added to it, or a merge brought it).
     *
     * @param key the key, as its UTF-8 bytes
     * @return {@code true} if it is
     */
    public boolean contains(CharSequence key) {
        byte[] bytes = Utf8.bytes(key);
        return index.find(MemorySegment.ofArray(bytes), 0, bytes.length) >= 0;
    }

    /**
     * Returns a key's 2^p registers, as a {@link HyperLogLog} of the table's precision and seed holds them
     * for the same items.
     *
     * @param key the key, as its UTF-8 bytes
     * @return a new array, all zero for a key not in the table
     */
    public byte[] registers(CharSequence key) {
        byte[] bytes = Utf8.bytes(key);
        long record = index.find(MemorySegment.ofArray(bytes), 0, bytes.length);
        return record < 0 ? new byte[1 << precision] : registers.registers(record);
    }

    /**
     * Returns every key's bytes, in the index's order (not sorted). Cost: a walk of the index.
     *
     * @return new arrays, one per key
     */
    public List<byte[]> keys() {
        List<byte[]> keys = new ArrayList<>();
        index.forEach(record -> keys.add(index.key(record).toArray(ValueLayout.JAVA_BYTE)));
        return keys;
    }

    /**
     * Counts the keys, and those of them with a dense block. Cost: a walk of the index.
     *
     * @return the counts
     */
    public HyperLogLogTable.KeyCounts keyCounts() {
        long[] counts = new long[2];
        index.forEach(record -> {
            counts[0]++;
            if (registers.isDense(record)) {
                counts[1]++;
            }
        });
        return new HyperLogLogTable.KeyCounts(counts[0], counts[0] - counts[1], counts[1]);
    }

    /**
     * Returns the precision p of every key's HyperLogLog.
     *
     * @return p, in [4, 18]
     */
    public int precision() {
        return precision;
    }

    /**
     * Returns the most keys the table holds.
     *
     * @return N
     */
    public long capacity() {
        return format.capacity();
    }

    /**
     * Returns the heap's size: the bytes the keys and their registers are stored in.
     *
     * @return H
     */
    public long heapBytes() {
        return heap.size();
    }

    /**
     * Returns the heap's bytes in use.
     *
     * @return bytes, at most {@link #heapBytes()}
     */
    public long heapBytesUsed() {
        return heap.used();
    }

    /**
     * Returns the relative standard error of every key's estimate, {@code 1.04 / sqrt(2^p)}.
     *
     * @return the relative standard error
     */
    public double relativeStandardError() {
        return HyperLogLogSizing.relativeStandardError(precision);
    }

    /** Precision, capacity, keys (sparse and dense), the heap and the error. */
    @Override
    protected void putFigures(Map<String, Object> figures) {
        HyperLogLogTable.KeyCounts counts = keyCounts();
        figures.put("precision", precision);
        figures.put("key capacity", capacity());
        figures.put("keys", counts.keys());
        figures.put("sparse keys", counts.sparse());
        figures.put("dense keys", counts.dense());
        super.putFigures(figures);
        figures.put("heap bytes", heapBytes());
        figures.put("heap bytes used", heapBytesUsed());
        figures.put("relative standard error", relativeStandardError());
    }
}
