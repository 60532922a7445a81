package io.mapsketch.membership;

import io.mapsketch.memory.AtomicSegment;
import java.lang.invoke.VarHandle;

/**
 * The payload of a cuckoo filter and how fingerprints are packed in it (drawn in
 * {@code docs/file-format.md}): a 64-byte control line (the lock word, the move counter, the
 * recoveries count, the write sequence and the slot it guards), then the slots; bucket i is slots
 * {@code 4i .. 4i + 3}. In the dense layout, slot s is bits {@code f s} to {@code f s + f - 1} of the
 * little-endian slot array, so with f = 12 two slots in every sixteen (s mod 16 = 5 or 10) straddle two
 * 64-bit words. The word-aligned layout of files written before it packs 12-bit fingerprints five to a
 * word instead (slot s is bits {@code 12 (s mod 5)} onwards of word {@code s / 5}); for f = 8 and 16 the
 * two layouts are the same.
 *
 * <p>Writes come from one writer at a time (under the filter's lock, or the exclusive writer), each
 * word stored whole with a release store, so a write never changes another slot's bits. A straddling
 * slot is stored inside an odd write sequence (a seqlock): {@link #matchStands} tells a lock-free reader
 * whether a match in such a slot was read whole, and {@link #repairTornWrite()} undoes a store that a
 * writer which died left half done. Readers take no lock and read each word with an acquire load. Why
 * this never answers from a torn slot and loses no key: {@code docs/design/membership.md}, "Cuckoo
 * filter: lock-free lookups".
 */
abstract sealed class CuckooSlots permits CuckooTable {

    static final int BUCKET_SIZE = CuckooSizing.BUCKET_SIZE;
    static final long CONTROL_BYTES = 64;
    /** Offset of the {@link io.mapsketch.memory.RegionLock} word. */
    static final long LOCK = 0;
    /** Offset of the move counter: +1 per fingerprint moved, between its new copy and its old slot's overwrite. */
    static final long MOVES = 8;
    /** Offset of the count of lock takeovers from dead holders. */
    static final long RECOVERIES = 16;
    /** Offset of the write sequence: odd while a writer stores a slot that straddles two words. */
    static final long SEQUENCE = 24;
    /** Offset of the index of the straddling slot being stored while the sequence is odd. */
    static final long WRITING = 32;
    /** Header value of the slot layout of files written before straddling slots: 12-bit slots five to a word. */
    static final long WORD_ALIGNED = 0;
    /** Header value of the dense slot layout: slot s at bit {@code f s}. */
    static final long DENSE = 1;

    final AtomicSegment words;
    private final long buckets;
    private final int bits;
    private final long fingerprintMask;
    /** The lowest bit of each of the four slots of {@link #slotsOf}. */
    private final long slotLowBits;
    /** The highest bit of each of the four slots of {@link #slotsOf}. */
    private final long slotHighBits;

    private final boolean wordAligned;
    /** Whether some slots straddle two words (dense, f = 12): only then do lookups read the sequence. */
    final boolean straddling;

    /**
     * Views the slots of a payload.
     *
     * @param buckets a power of two in [2, 2^32]
     * @param bits fingerprint width: 8, 12 or 16
     * @param layout {@link #DENSE} or {@link #WORD_ALIGNED}
     */
    CuckooSlots(AtomicSegment words, long buckets, int bits, long layout) {
        this.words = words;
        this.buckets = buckets;
        this.bits = bits;
        this.fingerprintMask = (1L << bits) - 1;
        long lowBits = 0;
        for (int slot = 0; slot < BUCKET_SIZE; slot++) {
            lowBits |= 1L << slot * bits;
        }
        this.slotLowBits = lowBits;
        this.slotHighBits = lowBits << bits - 1;
        this.wordAligned = layout == WORD_ALIGNED && Long.SIZE % bits != 0;
        this.straddling = !wordAligned && Long.SIZE % bits != 0;
    }

    /**
     * Payload bytes of a table: the control line, then the slots rounded up to 64-byte lines. Dense: f
     * bits per slot; word-aligned: {@code floor(64 / f)} slots per 64-bit word (12.8 bits per slot for f = 12).
     */
    static long payloadBytes(long buckets, int bits, long layout) {
        long slots = buckets * BUCKET_SIZE;
        long words =
                layout == WORD_ALIGNED ? Math.ceilDiv(slots, Long.SIZE / bits) : Math.ceilDiv(slots * bits, Long.SIZE);
        return CONTROL_BYTES + Math.ceilDiv(words, 8) * 64;
    }

    /** Slots of the table: four per bucket. */
    long slotCount() {
        return buckets * BUCKET_SIZE;
    }

    /** Bits of the table per slot: f when dense, 64 / floor(64 / f) in the word-aligned layout. */
    double bitsPerSlot() {
        return wordAligned ? (double) Long.SIZE / (Long.SIZE / bits) : bits;
    }

    // ---------------------------------------------------------------- bits of the slot array

    /** The first bit of a slot in the slot array. */
    private long bitOf(long slot) {
        return wordAligned ? slot / 5 * Long.SIZE + slot % 5 * bits : slot * bits;
    }

    private boolean straddles(long slot) {
        return straddling && (bitOf(slot) & 63) + bits > Long.SIZE;
    }

    private static long offsetOf(long word) {
        return CONTROL_BYTES + word * Long.BYTES;
    }

    /**
     * The {@code width} bits (at most 64, in the low bits of the result; the bits above are not masked)
     * from bit {@code bit} of the slot array, by a load of each of the one or two words they touch: an
     * acquire load for lock-free readers, a plain one for the writer, which holds the lock.
     */
    private long bitsAt(long bit, int width, boolean acquire) {
        long word = bit >>> 6;
        int shift = (int) bit & 63;
        long value = load(word, acquire) >>> shift;
        if (shift + width > Long.SIZE) {
            value |= load(word + 1, acquire) << -shift;
        }
        return value;
    }

    private long load(long word, boolean acquire) {
        return acquire ? words.getLongAcquire(offsetOf(word)) : words.getLong(offsetOf(word));
    }

    // ---------------------------------------------------------------- writers

    /** The fingerprint in slot {@code slot} (0..3) of a bucket; 0 if empty. Writers only. */
    int read(long bucket, int slot) {
        return (int) (bitsAt(bitOf(bucket * BUCKET_SIZE + slot), bits, false) & fingerprintMask);
    }

    /**
     * Stores a fingerprint (0 to empty the slot) with a release store of each word it touches; writers
     * only. A straddling slot is stored inside an odd write sequence, the slot named in the control line.
     */
    void write(long bucket, int slot, int fingerprint) {
        long s = bucket * BUCKET_SIZE + slot;
        if (!straddles(s)) {
            store(bitOf(s), fingerprint);
            return;
        }
        long sequence = words.getLong(SEQUENCE);
        words.putLongRelease(WRITING, s);
        words.putLongRelease(SEQUENCE, sequence + 1);
        VarHandle.releaseFence();
        store(bitOf(s), fingerprint);
        words.putLongRelease(SEQUENCE, sequence + 2);
    }

    /** Stores f bits at bit {@code bit}, the low word first, each word whole with a release store. */
    private void store(long bit, int fingerprint) {
        long word = bit >>> 6;
        int shift = (int) bit & 63;
        replace(word, fingerprintMask << shift, (long) fingerprint << shift);
        if (shift + bits > Long.SIZE) {
            replace(word + 1, fingerprintMask >>> -shift, (long) fingerprint >>> -shift);
        }
    }

    private void replace(long word, long mask, long value) {
        long offset = offsetOf(word);
        words.putLongRelease(offset, words.getLong(offset) & ~mask | value);
    }

    /**
     * Undoes a write left unfinished by a writer that died (the sequence is odd): empties the straddling
     * slot named in the control line, if it names one, and makes the sequence even. Every writer calls
     * this before it changes the table, while it is the only writer; it costs one load when there is
     * nothing to repair.
     */
    void repairTornWrite() {
        long sequence = words.getLongAcquire(SEQUENCE);
        if ((sequence & 1) == 0) {
            return;
        }
        long slot = words.getLong(WRITING);
        if (slot >= 0 && slot < buckets * BUCKET_SIZE && straddles(slot)) {
            store(bitOf(slot), 0);
        }
        words.putLongRelease(SEQUENCE, sequence + 1);
    }

    /** The first slot of a bucket holding {@code fingerprint} (0 for an empty slot), or -1. Writers only. */
    int find(long bucket, int fingerprint) {
        return slotIn(slotsOf(bucket, false), fingerprint);
    }

    /** Copies of a fingerprint in a bucket. Writers only. */
    int count(long bucket, int fingerprint) {
        long slots = slotsOf(bucket, false);
        int copies = 0;
        for (int slot = 0; slot < BUCKET_SIZE; slot++) {
            copies += fingerprintIn(slots, slot) == fingerprint ? 1 : 0;
        }
        return copies;
    }

    // ---------------------------------------------------------------- buckets, for readers and writers

    /**
     * The four slots of a bucket, slot i in bits {@code f i} to {@code f i + f - 1}: one load for f = 8
     * and 16 (a bucket lies in one word); dense 12-bit, one or two loads (4f bits from bit 4f bucket);
     * word-aligned, one per slot. Acquire loads for lock-free readers.
     */
    long slotsOf(long bucket, boolean acquire) {
        if (!straddling && !wordAligned) {
            long bit = bucket * BUCKET_SIZE * bits;
            return load(bit >>> 6, acquire) >>> bit;
        }
        long first = bucket * BUCKET_SIZE;
        if (!wordAligned) {
            return bitsAt(first * bits, BUCKET_SIZE * bits, acquire);
        }
        long slots = 0;
        for (int slot = 0; slot < BUCKET_SIZE; slot++) {
            slots |= (bitsAt(bitOf(first + slot), bits, acquire) & fingerprintMask) << slot * bits;
        }
        return slots;
    }

    /** The fingerprint in slot {@code slot} of a bucket's {@link #slotsOf}. */
    int fingerprintIn(long slots, int slot) {
        return (int) (slots >>> slot * bits & fingerprintMask);
    }

    /** The first slot of {@link #slotsOf} holding the fingerprint, or -1. */
    int slotIn(long slots, int fingerprint) {
        long matches = matching(slots, fingerprint);
        return matches == 0 ? -1 : firstSlotOf(matches);
    }

    /**
     * The slots of {@link #slotsOf} that hold {@code fingerprint} (0 for the empty ones), tested all four
     * at once without a branch: 0 if none does; else the highest bit of the first that does is set and no
     * bit below it (the bits of later slots may be set whether or not they match). The bits of {@code
     * slots} above the bucket's four slots are ignored.
     */
    long matching(long slots, int fingerprint) {
        long difference = slots ^ fingerprint * slotLowBits;
        return (difference - slotLowBits) & ~difference & slotHighBits;
    }

    /** The slot (0..3) whose highest bit is the lowest bit set in a non-zero {@link #matching} result. */
    int firstSlotOf(long matches) {
        return Long.bitCount(slotHighBits & (matches & -matches) - 1);
    }

    /** Occupied slots, by a pass over every bucket with acquire loads. */
    long occupied() {
        long occupied = 0;
        for (long bucket = 0; bucket < buckets; bucket++) {
            long slots = slotsOf(bucket, true);
            for (int slot = 0; slot < BUCKET_SIZE; slot++) {
                occupied += fingerprintIn(slots, slot) != 0 ? 1 : 0;
            }
        }
        return occupied;
    }

    // ---------------------------------------------------------------- the write sequence, for readers

    /** The write sequence, read with an acquire load before a reader's buckets; 0 when no slot straddles. */
    long sequenceBeforeRead() {
        return straddling ? words.getLongAcquire(SEQUENCE) : 0;
    }

    /**
     * Whether a match in slot {@code slot} (bucket * 4 + slot), found by acquire loads made after
     * {@link #sequenceBeforeRead} returned {@code sequence}, was read whole: always for a slot that does
     * not straddle; for one that does, if no write to it may have overlapped the loads.
     */
    boolean matchStands(long slot, long sequence) {
        return !straddles(slot) || readWhole(slot, sequence);
    }

    /**
     * Whether straddling slot {@code slot} was read whole: the sequence is unchanged and even (no
     * straddling write overlapped the loads), or just one write overlapped them, still in progress, and it
     * stores another slot. The control line is re-read with acquire loads, which cannot move before the
     * slot's loads.
     */
    private boolean readWhole(long slot, long sequence) {
        long now = words.getLongAcquire(SEQUENCE);
        if (now == sequence) {
            return (now & 1) == 0 || words.getLongAcquire(WRITING) != slot && words.getLongAcquire(SEQUENCE) == now;
        }
        return now == sequence + 1
                && (now & 1) == 1
                && words.getLongAcquire(WRITING) != slot
                && words.getLongAcquire(SEQUENCE) == now;
    }
}
