package io.mapsketch.frequency;

/**
 * The ranking of a Top-K candidate table: a binary min-heap of slot numbers by cached estimate, in
 * the table's heap array ({@code docs/file-format.md}), so the root is the candidate an admission
 * evicts first. Writers only, under the table's lock; {@link #entry} also serves the check of a file
 * on open. Cost: {@code O(log k)} reads and writes per sift, {@code O(k)} to heapify.
 */
final class CandidateHeap {

    private final CandidateSlots slots;

    CandidateHeap(CandidateSlots slots) {
        this.slots = slots;
    }

    /** The slot at heap position {@code position}; position 0 is the root. */
    int entry(int position) {
        return slots.words.getInt(slots.heapBase + (long) position * Integer.BYTES);
    }

    void put(int position, int slot) {
        slots.words.putInt(slots.heapBase + (long) position * Integer.BYTES, slot);
    }

    /** Moves the entry at {@code position} up until its parent's estimate is at most its own. */
    void siftUp(int position) {
        int slot = entry(position);
        long value = slots.cached(slot);
        while (position > 0) {
            int parent = (position - 1) >>> 1;
            int parentSlot = entry(parent);
            if (slots.cached(parentSlot) <= value) {
                break;
            }
            put(position, parentSlot);
            position = parent;
        }
        put(position, slot);
    }

    /** Moves the entry at {@code position} down, among the first {@code size}, until no child is smaller. */
    void siftDown(int position, int size) {
        int slot = entry(position);
        long value = slots.cached(slot);
        while (true) {
            int child = 2 * position + 1;
            if (child >= size) {
                break;
            }
            if (child + 1 < size && slots.cached(entry(child + 1)) < slots.cached(entry(child))) {
                child++;
            }
            int childSlot = entry(child);
            if (value <= slots.cached(childSlot)) {
                break;
            }
            put(position, childSlot);
            position = child;
        }
        put(position, slot);
    }

    /** Orders the first {@code size} entries into a heap. */
    void heapify(int size) {
        for (int position = size / 2 - 1; position >= 0; position--) {
            siftDown(position, size);
        }
    }
}
