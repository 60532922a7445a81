package io.mapsketch.memory;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * The live counters of a file (items added, total weight) as its {@link RegionMode#EXCLUSIVE}
 * writer updates them: the writer keeps a copy of each counter in a field, read when it opens, and
 * every call adds to the copy and stores the sum in the header with a plain store, with no fence
 * and no locked instruction. No other writer exists while it holds the file, so the copies stay
 * equal to the file and nothing is lost; other processes read the counters with acquire loads
 * ({@link SketchRegion#itemsAdded()}) and see each store as soon as the processor makes it visible,
 * but not ordered with the writer's payload stores (on x86-64 they are, by the hardware's store
 * order).
 *
 * <p>Why plain: an update that may take a fence, a locked instruction or a call (for example one
 * that publishes a running count every few thousand adds) stops the JIT compiler from keeping the
 * rest of a caller's add loop in registers; a plain store into the header's cache line, which stays
 * in the L1 cache, does not. Cost: one store to an L1-resident line per call, and no load from it.
 *
 * <p>In a file with counter slots ({@link SketchFileLayout#COUNTER_SLOTS_VERSION}) the counters are the
 * live line's words plus the slots'; the slots' sums are fixed while this writer holds the file, so it
 * keeps its limits lowered by them and adds nothing per update.
 *
 * <p>Not thread-safe, as the exclusive writer's payload stores are not: one thread at a time.
 * Once the region is closed every method throws {@link IllegalStateException}.
 */
public final class SoleWriterCounters {

    private static final ValueLayout.OfLong COUNTER = ValueLayout.JAVA_LONG.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final MemorySegment header;
    /** {@link LiveCounters#LIMIT} minus the items in the counter slots: where the live word saturates. */
    private final long itemsLimit;
    /** {@link LiveCounters#LIMIT} minus the weight in the counter slots: the most the live word may reach. */
    private final long weightLimit;

    private long items;
    private long weight;

    SoleWriterCounters(MemorySegment header, long slotItems, long slotWeight) {
        this.header = header;
        this.itemsLimit = LiveCounters.LIMIT - slotItems;
        this.weightLimit = LiveCounters.LIMIT - slotWeight;
        this.items = header.get(COUNTER, SketchFileLayout.ITEMS_OFFSET);
        this.weight = header.get(COUNTER, SketchFileLayout.WEIGHT_OFFSET);
    }

    /**
     * Adds to the items-added counter, saturating at {@link LiveCounters#LIMIT}; a removal never
     * takes it below zero and leaves a saturated counter saturated.
     *
     * @param delta items added, or removed if negative
     */
    public void addItems(long delta) {
        items = LiveCounters.itemsPlus(items, delta, itemsLimit);
        header.set(COUNTER, SketchFileLayout.ITEMS_OFFSET, items);
    }

    /**
     * Adds to the items-added and total-weight counters together: one check of the header's segment
     * for both stores, which keeps a caller's compiled add smaller than two calls would. Items
     * saturate as in {@link #addItems}; the weight is the caller's to keep within
     * {@link LiveCounters#LIMIT} (it checks {@link #weightRoom()} first, before the update it counts).
     *
     * @param items items added, non-negative
     * @param weight weight they add, non-negative
     * @throws ArithmeticException if the weight would pass {@code 2^63 - 1}, which a caller that
     *     checks first never asks for; nothing is stored
     */
    public void addItemsAndWeight(long items, long weight) {
        long total = Math.addExact(this.weight, weight);
        this.items = LiveCounters.itemsPlus(this.items, items, itemsLimit);
        this.weight = total;
        header.set(COUNTER, SketchFileLayout.ITEMS_OFFSET, this.items);
        header.set(COUNTER, SketchFileLayout.WEIGHT_OFFSET, this.weight);
    }

    /**
     * Returns the total-weight counter as this writer last stored it, from its copy, with the slots' weight.
     *
     * @return the total weight
     */
    public long weight() {
        return weight + (LiveCounters.LIMIT - weightLimit);
    }

    /**
     * Returns how much weight may still be added before the total reaches {@link LiveCounters#LIMIT}.
     *
     * @return the room, from the copy
     */
    public long weightRoom() {
        return weightLimit - weight;
    }
}
