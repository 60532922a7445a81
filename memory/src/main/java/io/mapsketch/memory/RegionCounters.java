package io.mapsketch.memory;

import static io.mapsketch.memory.SketchFileLayout.*;

import java.nio.file.Path;

/**
 * A region's live counters, items added and total weight, as one opener updates them: in the live line's
 * words ({@link LiveCounters}), or, from format version {@value SketchFileLayout#COUNTER_SLOTS_VERSION},
 * summed from the live line and the counter slots, with this {@code SHARED} writer adding in the slot it
 * claimed ({@link CounterSlots}). The {@code EXCLUSIVE} writer publishes with release stores, {@code SHARED}
 * writers with atomic additions; no counter wraps. {@link SketchRegion} checks that it is open (and
 * writable) before each call.
 */
final class RegionCounters {

    private final Path file;
    private final RegionMode mode;
    private final SketchHeader header;
    private final AtomicSegment headerPage;
    /** Whether the counters are summed from the live line and the counter slots ({@link CounterSlots}). */
    private final boolean slotted;
    /** This {@code SHARED} writer's counter slot (its line's offset in the header), or -1: the live line's words. */
    private final int slot;

    /** The counters of a region; a {@code SHARED} writer of a file with slots claims one here. */
    RegionCounters(Path file, RegionMode mode, SketchHeader header, AtomicSegment headerPage) {
        this.file = file;
        this.mode = mode;
        this.header = header;
        this.headerPage = headerPage;
        this.slotted = CounterSlots.kept(header);
        this.slot = slotted && mode == RegionMode.SHARED ? CounterSlots.claim(headerPage) : -1;
    }

    /** As {@link SketchRegion#soleWriterCounters()}, for the {@code EXCLUSIVE} writer. */
    SoleWriterCounters soleWriter() {
        return slotted
                ? new SoleWriterCounters(
                        headerPage.segment(),
                        CounterSlots.sum(headerPage, SLOT_ITEMS),
                        CounterSlots.sum(headerPage, SLOT_WEIGHT))
                : new SoleWriterCounters(headerPage.segment(), 0, 0);
    }

    /** As {@link SketchRegion#itemsAdded()}. */
    long itemsAdded() {
        return slotted
                ? CounterSlots.itemsRead(headerPage)
                : LiveCounters.itemsRead(headerPage.getLongAcquire(ITEMS_OFFSET));
    }

    /** As {@link SketchRegion#addItems(long)}, for a writer, {@code delta} non-negative. */
    void addItems(long delta) {
        if (mode == RegionMode.EXCLUSIVE) {
            long limit = LiveCounters.LIMIT - (slotted ? CounterSlots.sum(headerPage, SLOT_ITEMS) : 0);
            storeAsSoleWriter(ITEMS_OFFSET, LiveCounters.itemsPlus(headerPage.getLong(ITEMS_OFFSET), delta, limit));
        } else if (slotted) {
            CounterSlots.addItems(headerPage, slot, delta);
        } else {
            LiveCounters.addItemsShared(headerPage, ITEMS_OFFSET, delta);
        }
    }

    /** As {@link SketchRegion#removeItems(long)}, for a writer, {@code count} non-negative. */
    void removeItems(long count) {
        if (slotted) {
            throw new IllegalStateException(FileFault.describe(file) + " is of format version " + header.formatVersion()
                    + ", whose counter slots only add; kinds that remove items write format version 4");
        }
        if (mode == RegionMode.EXCLUSIVE) {
            storeAsSoleWriter(
                    ITEMS_OFFSET, LiveCounters.itemsPlus(headerPage.getLong(ITEMS_OFFSET), -count, LiveCounters.LIMIT));
        } else {
            LiveCounters.removeItemsShared(headerPage, ITEMS_OFFSET, count);
        }
    }

    /** As {@link SketchRegion#totalWeight()}. */
    long totalWeight() {
        return slotted ? CounterSlots.weightRead(headerPage) : headerPage.getLongAcquire(WEIGHT_OFFSET);
    }

    /** As {@link SketchRegion#addWeight(long)}, for a writer, {@code delta} non-negative. */
    void addWeight(long delta) {
        boolean added;
        if (mode == RegionMode.EXCLUSIVE) {
            long current = headerPage.getLong(WEIGHT_OFFSET);
            long slots = slotted ? CounterSlots.sum(headerPage, SLOT_WEIGHT) : 0;
            added = LiveCounters.weightRoom(current + slots, delta);
            if (added) {
                storeAsSoleWriter(WEIGHT_OFFSET, current + delta);
            }
        } else if (slotted) {
            added = CounterSlots.addWeight(headerPage, slot, delta);
        } else {
            added = LiveCounters.addWeightShared(headerPage, WEIGHT_OFFSET, delta) >= 0;
        }
        if (!added) {
            throw new IllegalArgumentException("delta = " + delta + " would take the total weight " + totalWeight()
                    + " past " + LiveCounters.LIMIT + " (2^63 - 2^55 - 1); nothing was added");
        }
    }

    /** Gives this writer's counter slot back at close, keeping its counts; nothing if it holds none. */
    void releaseSlot() {
        if (slot >= 0) {
            CounterSlots.release(headerPage, slot);
        }
    }

    /** The only writer: a release store publishes the count without a locked instruction. */
    private void storeAsSoleWriter(int offset, long value) {
        headerPage.putLongRelease(offset, value);
    }
}
