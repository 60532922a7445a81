package io.mapsketch.cardinality;

import io.mapsketch.SketchFileException;
import io.mapsketch.internal.KeyTable;
import io.mapsketch.internal.Utf8;
import io.mapsketch.memory.SketchRegion;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The read side of a {@link HyperLogLogTable}, its package-private base: the keys' registers, the checks
 * of their storage on open, the estimates and the figures; the key index and the heap are the
 * {@link KeyTable}'s.
 */
// The mechanics every sketch shares sit in the unexported package; their public methods are the table's.
@SuppressWarnings("exports")
abstract sealed class HyperLogLogTableReads extends KeyTable permits HyperLogLogTable {

    final HyperLogLogTableFormat format;
    final int precision;
    final TableRegisters registers;

    HyperLogLogTableReads(SketchRegion region, HyperLogLogTableFormat format) {
        super(region, format.table(), TableRegisters.VALUE_BYTES);
        this.format = format;
        this.precision = format.precision();
        this.registers = new TableRegisters(heap, precision, sharedWriters);
    }

    final void validate() throws SketchFileException {
        Path file = region.file().orElse(null);
        byte[] seen = new byte[1 << precision];
        validate((record, heap) -> registers.validate(record, seen, heap, file));
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
        long record = find(key, offset, length);
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
            long record = find(key, 0, key.length);
            if (record >= 0) {
                registers.gather(record, union);
            }
        }
        return registers.estimate(HyperLogLogEstimates.summary(union, precision, registers.top()), describe());
    }

    /**
     * Returns a key's 2^p registers, as a {@link HyperLogLog} of the table's precision and seed holds them
     * for the same items.
     *
     * @param key the key, as its UTF-8 bytes
     * @return a new array, all zero for a key not in the table
     */
    public byte[] registers(CharSequence key) {
        long record = find(key);
        return record < 0 ? new byte[1 << precision] : registers.registers(record);
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
        putCapacity(figures);
        figures.put("keys", counts.keys());
        figures.put("sparse keys", counts.sparse());
        figures.put("dense keys", counts.dense());
        super.putFigures(figures);
        putHeap(figures);
        figures.put("relative standard error", relativeStandardError());
    }
}
