package io.mapsketch.jmh;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The reads a roll-up of HyperLogLog tables cannot leave out, alone: per key and table, the key's slot word
 * and every cache line of its record, the keys in the first table's slot order, {@link #BATCH} keys at a
 * time, each batch's slots and then its records read table after table, as the merge's lookups read them.
 * No hashing, no key compares, no merge: where each key's slot and record lie is worked out when the plan
 * is made, from the tables' files as {@code docs/design/tables.md} lays them out (a 4,096-byte header, the
 * 64-byte table line, the slot words, the heap). The files are mapped read-only.
 */
final class TableRecordReads implements AutoCloseable {

    /** Keys whose reads are issued together, as a batch of the merge's key walk. */
    static final int BATCH = 32;

    private static final long HEADER_BYTES = 4_096;
    private static final long TABLE_LINE_BYTES = 64;
    private static final long REFERENCE_MASK = (1L << 40) - 1;
    /** A record's bytes before its key: length, dense word, chunk 0's link and its 8 words. */
    private static final long RECORD_BYTES_BEFORE_KEY = 16 + 8 + 64;

    private static final long CACHE_LINE = 64;

    private final Arena arena = Arena.ofShared();
    private final MemorySegment[] files;
    /** {@code slotAt[t][k]}: the file offset of the slot word of the k-th key in table t. */
    private final long[][] slotAt;
    /** {@code recordAt[t][k]}, {@code recordEnd[t][k]}: the file offsets of that key's record and its end. */
    private final long[][] recordAt;

    private final long[][] recordEnd;

    /**
     * Maps the tables' files and finds every key of the first in every table.
     *
     * @param tables the files of tables of one key capacity holding the same keys
     * @param capacity the key capacity N of every table
     * @throws IOException if a file cannot be mapped
     * @throws IllegalStateException if a table misses a key of the first
     */
    TableRecordReads(List<Path> tables, long capacity) throws IOException {
        int slotCount = slotCount(capacity);
        int count = tables.size();
        files = new MemorySegment[count];
        for (int t = 0; t < count; t++) {
            try (FileChannel channel = FileChannel.open(tables.get(t), StandardOpenOption.READ)) {
                files[t] = channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size(), arena);
            }
        }
        List<String> keys = List.copyOf(places(files[0], slotCount).keySet());
        slotAt = new long[count][keys.size()];
        recordAt = new long[count][keys.size()];
        recordEnd = new long[count][keys.size()];
        for (int t = 0; t < count; t++) {
            Map<String, Long> slots = places(files[t], slotCount);
            for (int k = 0; k < keys.size(); k++) {
                Long slot = slots.get(keys.get(k));
                if (slot == null) {
                    throw new IllegalStateException(tables.get(t) + " has not the key " + keys.get(k));
                }
                slotAt[t][k] = slot;
                recordAt[t][k] = record(files[t], slot, slotCount);
                recordEnd[t][k] = recordAt[t][k]
                        + RECORD_BYTES_BEFORE_KEY
                        + ((files[t].get(ValueLayout.JAVA_INT_UNALIGNED, recordAt[t][k]) + 7) & -8);
            }
        }
    }

    /** The slot words of a table of key capacity N: the smallest power of two >= 4N / 3, at least 8. */
    private static int slotCount(long capacity) {
        long least = Math.max(8, (4 * capacity + 2) / 3);
        return Math.toIntExact(Long.highestOneBit(least - 1) << 1);
    }

    /** Every key of a table's file, in slot order, to its slot word's file offset. */
    private static Map<String, Long> places(MemorySegment file, int slotCount) {
        Map<String, Long> places = new LinkedHashMap<>();
        for (long slot = 0; slot < slotCount; slot++) {
            long at = HEADER_BYTES + TABLE_LINE_BYTES + slot * Long.BYTES;
            if (file.get(ValueLayout.JAVA_LONG_UNALIGNED, at) != 0) {
                long record = record(file, at, slotCount);
                int length = file.get(ValueLayout.JAVA_INT_UNALIGNED, record);
                byte[] key =
                        file.asSlice(record + RECORD_BYTES_BEFORE_KEY, length).toArray(ValueLayout.JAVA_BYTE);
                places.put(new String(key, StandardCharsets.ISO_8859_1), at);
            }
        }
        return places;
    }

    /** The file offset of the record of the slot word at file offset {@code slot}. */
    private static long record(MemorySegment file, long slot, int slotCount) {
        long word = file.get(ValueLayout.JAVA_LONG_UNALIGNED, slot);
        long heap = HEADER_BYTES + TABLE_LINE_BYTES + (long) Long.BYTES * slotCount;
        return heap + ((word & REFERENCE_MASK) - 1) * Long.BYTES;
    }

    /** Reads every key's slot word and record lines in every table, as the class says; returns their sum. */
    long readAll() {
        int keys = slotAt[0].length;
        long sum = 0;
        for (int first = 0; first < keys; first += BATCH) {
            int end = Math.min(first + BATCH, keys);
            for (int t = 0; t < files.length; t++) {
                MemorySegment file = files[t];
                long[] slots = slotAt[t];
                long[] records = recordAt[t];
                long[] ends = recordEnd[t];
                for (int k = first; k < end; k++) {
                    sum += file.get(ValueLayout.JAVA_LONG_UNALIGNED, slots[k]);
                }
                for (int k = first; k < end; k++) {
                    for (long line = records[k] & -CACHE_LINE; line < ends[k]; line += CACHE_LINE) {
                        sum += file.get(ValueLayout.JAVA_LONG_UNALIGNED, Math.max(line, records[k]));
                    }
                }
            }
        }
        return sum;
    }

    /** Unmaps the files. */
    @Override
    public void close() {
        arena.close();
    }
}
