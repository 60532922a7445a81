package io.mapsketch.internal;

import io.mapsketch.CorruptSketchFileException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The check of a {@link KeyIndex} on open: refuses an index a lookup could misread, that is a reserved count
 * above N; a heap cursor outside the heap or not a multiple of 8; a slot whose record lies outside the heap
 * or past its cursor, whose key is longer than {@value KeyIndex#MAX_KEY_BYTES} bytes, whose tag is not its
 * key's, or that a lookup of its key would not reach; two pieces of the heap that share a byte
 * ({@link HeapPieces}).
 *
 * <p>Cost: one walk of the slots, a hash of every key and the probe from its home slot to its slot.
 */
final class KeyIndexCheck {

    private static final String SLOT = "key index slot";

    private final KeyIndex index;
    private final TableHeap heap;
    private final MemorySegment heapBytes;
    private final Path file;

    KeyIndexCheck(KeyIndex index, Path file) {
        this.index = index;
        this.heap = index.heap();
        this.heapBytes = heap.bytes().segment();
        this.file = file;
    }

    /**
     * Checks the index and hands each key's record, once its slot is checked and its record marked, to
     * {@code check}.
     *
     * @throws CorruptSketchFileException naming the fault
     */
    void validate(KeyIndex.RecordCheck check, HeapPieces... areas) throws CorruptSketchFileException {
        long reserved = index.reserved();
        long capacity = index.capacity();
        if (reserved < 0 || reserved > capacity) {
            throw new CorruptSketchFileException(file, "reserved keys = " + reserved + ", expected 0.." + capacity);
        }
        long used = heap.used();
        if (used < 0 || used > heap.size() || used % Long.BYTES != 0) {
            throw new CorruptSketchFileException(
                    file, "heap cursor = " + used + ", expected a multiple of 8 in 0.." + heap.size());
        }
        long[] keys = {0};
        try (HeapPieces pieces = new HeapPieces(heap, used, Long.BYTES, "heap", file)) {
            List<HeapPieces> maps = new ArrayList<>(List.of(areas));
            maps.add(pieces);
            HeapPieces.walk(maps, () -> keys[0] = walk(check, pieces));
        }
        // A key is reserved before its slot is set, so (read again after the walk) never fewer reserved than set.
        if (keys[0] > index.reserved()) {
            throw new CorruptSketchFileException(
                    file, "key index slots set: " + keys[0] + ", more than the keys reserved: " + index.reserved());
        }
    }

    /** Checks every slot and hands its record to {@code check}; returns the slots set. */
    private long walk(KeyIndex.RecordCheck check, HeapPieces pieces) throws CorruptSketchFileException {
        check.begin();
        long keys = 0;
        for (long slot = 0; slot < index.slotCount(); slot++) {
            long word = index.slotWord(slot);
            if (word != 0) {
                validateSlot(slot, word, pieces);
                check.check(KeyIndex.record(word), pieces);
                keys++;
            }
        }
        return keys;
    }

    private void validateSlot(long slot, long word, HeapPieces pieces) throws CorruptSketchFileException {
        long record = KeyIndex.record(word);
        if (record < 0 || record > heap.size() - index.recordBytes(0)) {
            throw slotFault(slot, "refers to heap offset " + record + ", outside the heap of " + heap.size());
        }
        int length = heapBytes.get(ValueLayout.JAVA_INT_UNALIGNED, record);
        if (length < 0 || length > KeyIndex.MAX_KEY_BYTES || record + index.recordBytes(length) > heap.size()) {
            throw slotFault(
                    slot,
                    "has a key of " + length + " bytes at heap offset " + record + ", longer than "
                            + KeyIndex.MAX_KEY_BYTES + " or past the heap");
        }
        // A record is handed out before its slot is set, and the cursor never moves back past a published one.
        pieces.mark(record, index.recordBytes(length), "record", SLOT, slot);
        long hash = index.hash(index.key(record), 0, length);
        if (KeyIndex.tag(hash) != KeyIndex.tag(word)) {
            throw slotFault(slot, "has a tag that is not its key's");
        }
        long mask = index.slotCount() - 1;
        for (long s = hash & mask; s != slot; s = (s + 1) & mask) {
            if (index.slotWord(s) == 0) {
                throw slotFault(slot, "is out of its key's reach: slot " + s + " before it is empty");
            }
        }
    }

    private CorruptSketchFileException slotFault(long slot, String fault) {
        return new CorruptSketchFileException(file, SLOT + " " + slot + " " + fault);
    }
}
