package io.mapsketch.memory;

import static io.mapsketch.memory.SketchFileLayout.*;

import java.nio.file.Path;

/**
 * The counter slots of a header of format version {@value SketchFileLayout#COUNTER_SLOTS_VERSION} and
 * later: each {@link RegionMode#SHARED} writer claims one of {@value SketchFileLayout#COUNTER_SLOTS} cache
 * lines of the header and adds its items and weight there, so that writers in different processes do not
 * update one cache line; a counter's value is the live line's word plus the slots' (layout in
 * {@link SketchFileLayout}, proofs in {@code docs/design/live-counters.md}).
 *
 * <ul>
 *   <li>Slots only add. A slot takes an addition of at most {@link LiveCounters#FAST_DELTA} with one
 *       {@code getAndAdd} while it holds at most {@link #SLOT_CAP} minus it; any other addition goes to the
 *       live line's word by the rules of {@link LiveCounters}, so no word ever passes {@code 2^63 - 1} and a
 *       sum of the slots stays below {@code 2^62}.
 *   <li>Items: the sum saturates (reads as {@code Long.MAX_VALUE}) once it reaches {@link LiveCounters#LIMIT}.
 *       Files with slots take no removals: the kinds that remove write format version 4.
 *   <li>Weight: a slot (or the live word) takes a small addition at once while the directory's
 *       {@link SketchFileLayout#SLOT_FLAG_WEIGHT_NEAR_LIMIT} is clear; that flag is set before the live
 *       word is taken past {@link #WEIGHT_GATE}, and from then on every addition compares and sets the live
 *       word against the sum of every slot, so the total stays within the limit as the items' rule does.
 *   <li>Ownership only spreads the writers: a slot is claimed by compare-and-set of its owner word (free, or
 *       held by a process that died), released at close, and keeps its counts across owners. Two writers
 *       adding to one slot are still exact. When every slot is held by a live writer, a new writer adds to
 *       the live line's words.
 * </ul>
 *
 * <p>Cost: an addition loads one word of the slot directory line (weight only) and one of its own slot, and
 * adds to that slot; a read of a counter loads the slots in use.
 */
final class CounterSlots {

    /** The most a slot holds before its writer's additions go to the live line's word: 2^56. */
    static final long SLOT_CAP = 1L << 56;
    /** A bound on every slot's stored value (the cap plus the additions in flight), checked on open: 2^57. */
    static final long SLOT_BOUND = 1L << 57;
    /**
     * The live weight word below which shared writers add without reading the slots, while the directory's
     * near-limit flag is clear: {@link LiveCounters#LIMIT} minus every slot at its bound and 2^56 for the
     * additions in flight.
     */
    static final long WEIGHT_GATE = LiveCounters.LIMIT - COUNTER_SLOTS * SLOT_BOUND - (1L << 56);

    private static final long TOKEN = RegionLock.currentProcessToken();

    private CounterSlots() {}

    /** Tells whether a header of this version keeps its counters in slots. */
    static boolean kept(SketchHeader header) {
        return header.formatVersion() >= COUNTER_SLOTS_VERSION;
    }

    /** The offset of slot {@code i}'s line in the header page. */
    static int slotOffset(int i) {
        return COUNTER_SLOTS_OFFSET + i * CACHE_LINE;
    }

    /**
     * Claims a slot for a new shared writer of this process: a free one below the slots in use, else one
     * whose owner died, else the next unused one; closes the weight's fast additions if an exclusive writer
     * left the live weight past {@link #WEIGHT_GATE}. Cost: a few loads and compare-and-sets, and a
     * liveness check of each owner that is not this process when no slot is free.
     *
     * @return the claimed slot's line offset, or -1 if every slot is held by a live writer
     */
    static int claim(AtomicSegment page) {
        if (page.getLongAcquire(WEIGHT_OFFSET) > WEIGHT_GATE) {
            page.getAndOrInt(SLOT_FLAGS_OFFSET, SLOT_FLAG_WEIGHT_NEAR_LIMIT);
        }
        int inUse = page.getIntAcquire(SLOTS_IN_USE_OFFSET);
        for (int i = 0; i < inUse; i++) {
            if (page.compareAndSetLong(slotOffset(i) + SLOT_OWNER, 0, TOKEN)) {
                return slotOffset(i);
            }
        }
        for (int i = 0; i < inUse; i++) {
            long owner = page.getLongAcquire(slotOffset(i) + SLOT_OWNER);
            if (owner != TOKEN
                    && !RegionLock.isAlive(owner)
                    && page.compareAndSetLong(slotOffset(i) + SLOT_OWNER, owner, TOKEN)) {
                return slotOffset(i);
            }
        }
        for (int i = inUse; i < COUNTER_SLOTS; i++) {
            long owner = page.getLongAcquire(slotOffset(i) + SLOT_OWNER);
            boolean free = owner == 0 || (owner != TOKEN && !RegionLock.isAlive(owner));
            if (free && page.compareAndSetLong(slotOffset(i) + SLOT_OWNER, owner, TOKEN)) {
                raiseSlotsInUse(page, i + 1);
                return slotOffset(i);
            }
        }
        return -1;
    }

    private static void raiseSlotsInUse(AtomicSegment page, int count) {
        int current = page.getIntAcquire(SLOTS_IN_USE_OFFSET);
        while (current < count && !page.compareAndSetInt(SLOTS_IN_USE_OFFSET, current, count)) {
            current = page.getIntAcquire(SLOTS_IN_USE_OFFSET);
        }
    }

    /** Frees a slot this writer claimed; its counts stay and keep counting. */
    static void release(AtomicSegment page, int slot) {
        page.compareAndSetLong(slot + SLOT_OWNER, TOKEN, 0);
    }

    /** The sum of one field ({@link SketchFileLayout#SLOT_ITEMS} or {@code SLOT_WEIGHT}) over the slots in use. */
    static long sum(AtomicSegment page, int field) {
        int inUse = Math.min(page.getIntAcquire(SLOTS_IN_USE_OFFSET), COUNTER_SLOTS);
        long sum = 0;
        for (int i = 0; i < inUse; i++) {
            sum += page.getLongAcquire(slotOffset(i) + field);
        }
        return sum;
    }

    /** Items added as callers read them: the live word plus the slots', {@code Long.MAX_VALUE} from the limit on. */
    static long itemsRead(AtomicSegment page) {
        long central = page.getLongAcquire(ITEMS_OFFSET);
        if (central >= LiveCounters.LIMIT) {
            return Long.MAX_VALUE;
        }
        long slots = sum(page, SLOT_ITEMS);
        return slots >= LiveCounters.LIMIT - central ? Long.MAX_VALUE : central + slots;
    }

    /** The total weight: the live word plus the slots'. */
    static long weightRead(AtomicSegment page) {
        return page.getLongAcquire(WEIGHT_OFFSET) + sum(page, SLOT_WEIGHT);
    }

    /** Adds {@code delta >= 0} items to the writer's slot ({@code -1}: none), or to the live word if it cannot. */
    static void addItems(AtomicSegment page, int slot, long delta) {
        if (slot < 0 || !addToSlot(page, slot + SLOT_ITEMS, delta)) {
            LiveCounters.addItemsShared(page, ITEMS_OFFSET, delta);
        }
    }

    /**
     * Adds {@code delta >= 0} to the total weight unless, as read, it would pass {@link LiveCounters#LIMIT}.
     *
     * @return {@code true} if added, {@code false} if refused and nothing changed
     */
    static boolean addWeight(AtomicSegment page, int slot, long delta) {
        if (delta <= LiveCounters.FAST_DELTA
                && (page.getIntAcquire(SLOT_FLAGS_OFFSET) & SLOT_FLAG_WEIGHT_NEAR_LIMIT) == 0) {
            if (slot >= 0 && addToSlot(page, slot + SLOT_WEIGHT, delta)) {
                return true;
            }
            if (page.getLongAcquire(WEIGHT_OFFSET) <= WEIGHT_GATE) {
                page.getAndAddLong(WEIGHT_OFFSET, delta);
                return true;
            }
        }
        long central = page.getLongAcquire(WEIGHT_OFFSET);
        while (central <= WEIGHT_GATE - delta) {
            if (page.compareAndSetLong(WEIGHT_OFFSET, central, central + delta)) {
                return true;
            }
            central = page.getLongAcquire(WEIGHT_OFFSET);
        }
        if (delta > LiveCounters.LIMIT - central) {
            return false; // refused whatever the slots hold: no reason to slow the other writers down
        }
        page.getAndOrInt(SLOT_FLAGS_OFFSET, SLOT_FLAG_WEIGHT_NEAR_LIMIT);
        while (true) {
            central = page.getLongAcquire(WEIGHT_OFFSET);
            if (delta > LiveCounters.LIMIT - central - sum(page, SLOT_WEIGHT)) {
                return false;
            }
            if (page.compareAndSetLong(WEIGHT_OFFSET, central, central + delta)) {
                return true;
            }
        }
    }

    private static boolean addToSlot(AtomicSegment page, int offset, long delta) {
        if (delta <= LiveCounters.FAST_DELTA && page.getLongAcquire(offset) <= SLOT_CAP - delta) {
            page.getAndAddLong(offset, delta);
            return true;
        }
        return false;
    }

    /**
     * Checks the slot directory and slots of a header page read from a file: slots in use at most
     * {@value SketchFileLayout#COUNTER_SLOTS}, only known flags, every count in [0, {@link #SLOT_BOUND}),
     * zero counts in slots never used, reserved bytes zero. Owners may be anything: a dead owner is reused.
     */
    static void check(java.lang.foreign.MemorySegment page, Path file) throws FileFault {
        int inUse = page.get(HeaderCodec.INT, SLOTS_IN_USE_OFFSET);
        if (inUse < 0 || inUse > COUNTER_SLOTS) {
            throw HeaderCodec.corrupt(
                    file, "slots in use", SLOTS_IN_USE_OFFSET, "0.." + COUNTER_SLOTS, Integer.toString(inUse));
        }
        int flags = page.get(HeaderCodec.INT, SLOT_FLAGS_OFFSET);
        if ((flags & ~SLOT_FLAG_WEIGHT_NEAR_LIMIT) != 0) {
            throw HeaderCodec.corrupt(
                    file,
                    "slot flags",
                    SLOT_FLAGS_OFFSET,
                    "only bit " + SLOT_FLAG_WEIGHT_NEAR_LIMIT,
                    Integer.toString(flags));
        }
        requireZero(page, file, SLOT_DIRECTORY_RESERVED_OFFSET, SLOT_DIRECTORY_OFFSET + CACHE_LINE);
        for (int i = 0; i < COUNTER_SLOTS; i++) {
            int line = slotOffset(i);
            for (int field : new int[] {SLOT_ITEMS, SLOT_WEIGHT}) {
                long count = page.get(HeaderCodec.LONG, line + field);
                long bound = i < inUse ? SLOT_BOUND : 1;
                if (count < 0 || count >= bound) {
                    throw HeaderCodec.corrupt(
                            file,
                            (field == SLOT_ITEMS ? "items" : "weight") + " of counter slot " + i,
                            line + field,
                            i < inUse ? "a count in [0, 2^57)" : "0 (a slot above the slots in use)",
                            Long.toString(count));
                }
            }
            requireZero(page, file, line + SLOT_RESERVED, line + CACHE_LINE);
        }
    }

    private static void requireZero(java.lang.foreign.MemorySegment page, Path file, int from, int to)
            throws FileFault {
        for (int offset = from; offset < to; offset += 8) {
            long value = page.get(HeaderCodec.LONG, offset);
            if (value != 0) {
                throw HeaderCodec.corrupt(file, "reserved", offset, "0", HeaderCodec.hex(value));
            }
        }
    }
}
