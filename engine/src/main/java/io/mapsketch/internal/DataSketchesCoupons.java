package io.mapsketch.internal;

import io.mapsketch.CorruptSketchFileException;
import io.mapsketch.memory.AtomicSegment;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * DataSketches' coupon modes in a HyperLogLog file of its scheme: the coupons a DataSketches sketch holds
 * in LIST and SET mode, in a coupon area after the registers, and the coupon word in the summary line that
 * says which mode the file is in. A LIST is 8 entries filled in arrival order; a SET is an open-addressing
 * table of {@code 2^lgArr} entries (5 to lgK - 3), probed from {@code coupon & mask} with stride
 * {@code (address >>> lgArr) | 1}, that doubles, reinserting in table order, when its count passes 3/4 of
 * it, and promotes to registers instead at its largest size; the LIST leaves at its eighth coupon, to a SET
 * from lgK 8 on, else to registers. Layout, crash recovery and reasons: {@code docs/design/datasketches-hll.md}.
 *
 * <p>Only the {@code EXCLUSIVE} writer changes the coupons ({@link #insert}); readers in any process take a
 * consistent copy ({@link #coupons()}). Cost: an insert is a probe of a few entries; a growth, a pass over
 * the table.
 */
public final class DataSketchesCoupons {

    /** The mode of a coupon word whose file answers from its registers (every file without a coupon area). */
    public static final int HLL = 0;
    /** The mode of up to 7 coupons in arrival order. */
    public static final int LIST = 1;
    /** The mode of an open-addressing set of coupons. */
    public static final int SET = 2;
    /** The coupon word's offset in the summary line. */
    public static final int WORD = 40;
    /** What {@link #insert} returns for a coupon already held. */
    public static final int HELD = 0;
    /** What {@link #insert} returns for a coupon added. */
    public static final int ADDED = 1;
    /** What {@link #insert} returns for the coupon at which DataSketches promotes: the caller promotes. */
    public static final int PROMOTE = 2;

    private static final long GROWING = 4;
    private static final int ADDRESS_BITS = 26;
    private static final int ADDRESS_MASK = (1 << ADDRESS_BITS) - 1;
    private static final int LG_LIST = 3;
    private static final int LIST_ENTRIES = 1 << LG_LIST;
    private static final int LG_MIN_SET = 5;
    private static final ValueLayout.OfInt ENTRY = ValueLayout.JAVA_INT.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final AtomicSegment line;
    private final MemorySegment area;
    private final MemorySegment scratch;
    private final int lgK;

    /**
     * Wraps the coupons of a sketch of precision lgK: its summary line, and its payload, whose registers
     * serve as the scratch of a growth and whose coupon area follows them.
     */
    public DataSketchesCoupons(AtomicSegment line, MemorySegment payload, long registerBytes, int lgK) {
        this.line = line;
        this.lgK = lgK;
        this.scratch = payload.asSlice(0, registerBytes);
        this.area = payload.asSlice(registerBytes, areaBytes(lgK));
    }

    /** The coupon area's bytes at precision lgK: a LIST's 8 entries in a line below lgK 8, else the largest SET. */
    public static long areaBytes(int lgK) {
        return lgK < 8 ? 64 : 4L << (lgK - 3);
    }

    /** Entries a table of {@code 2^lgEntries} holds before one more grows it: three quarters. */
    public static int tableCapacity(int lgEntries) {
        return (3 << lgEntries) >>> 2;
    }

    /** The distinct coupons at which a sketch of lgK leaves its coupon modes for registers. */
    public static int promotionCoupons(int lgK) {
        return lgK < 8 ? LIST_ENTRIES : tableCapacity(lgK - 3) + 1;
    }

    /** The word of a mode, its table's log2 size and its coupon count. */
    static long word(int mode, int lgArr, int count) {
        return (long) count << 32 | (long) lgArr << 8 | mode;
    }

    /** The mode of a coupon word. */
    public static int mode(long word) {
        return (int) (word & 3);
    }

    /** The coupon count of a coupon word. */
    public static int count(long word) {
        return (int) (word >>> 32);
    }

    /** The log2 table size of a coupon word. */
    public static int lgArr(long word) {
        return (int) (word >>> 8) & 0xFF;
    }

    /** The coupon word in the file (acquire). */
    public long word() {
        return line.getLongAcquire(WORD);
    }

    /**
     * The table DataSketches holds after these coupons arrive in this order, starting as an empty LIST or,
     * with {@code set}, an empty SET of 2^5 entries (as {@code HllSketch.heapify} rebuilds a compact image).
     *
     * @param coupons distinct coupons, fewer than DataSketches promotes at
     * @return the table, as {@link #table()} gives it
     */
    public static int[] tableOf(int lgK, boolean set, int[] coupons) {
        long registerBytes = Math.max(64, 1L << lgK);
        MemorySegment payload = MemorySegment.ofArray(new long[(int) ((registerBytes + areaBytes(lgK)) / 8)]);
        AtomicSegment line = new AtomicSegment(MemorySegment.ofArray(new long[8]));
        DataSketchesCoupons table = new DataSketchesCoupons(line, payload, registerBytes, lgK);
        table.area.fill((byte) 0);
        line.putLong(WORD, set ? word(SET, LG_MIN_SET, 0) : word(LIST, LG_LIST, 0));
        for (int coupon : coupons) {
            table.insert(coupon);
        }
        return table.table();
    }

    /** Starts a new sketch's coupons: an empty LIST. For a file no other opener sees yet. */
    public void startList() {
        area.fill((byte) 0);
        line.putLongRelease(WORD, word(LIST, LG_LIST, 0));
    }

    /**
     * Starts a new sketch's coupons from a DataSketches table, entry for entry: 8 entries are a LIST (coupons
     * in arrival order, then zeros), {@code 2^5} to {@code 2^(lgK-3)} a SET placed by its probe sequence.
     *
     * @throws IllegalArgumentException naming the table's length or the first entry that DataSketches would
     *     not hold there
     */
    public void start(int[] table) {
        int lgArr = Integer.numberOfTrailingZeros(table.length);
        boolean list = table.length == LIST_ENTRIES;
        if (Integer.bitCount(table.length) != 1 || !list && (lgArr < LG_MIN_SET || lgArr > lgK - 3)) {
            throw new IllegalArgumentException("coupon table length = " + table.length + ", must be 8 (a LIST) or 2^5"
                    + " to 2^(lgK - 3) = 2^" + (lgK - 3) + " (a SET)");
        }
        String fault = tableFault(table, list ? LIST : SET, count(table), lgArr);
        if (fault != null) {
            throw new IllegalArgumentException("coupon table: " + fault);
        }
        area.fill((byte) 0);
        MemorySegment.copy(table, 0, area, ENTRY, 0, table.length);
        line.putLongRelease(WORD, word(list ? LIST : SET, lgArr, count(table)));
    }

    /**
     * Adds a coupon as DataSketches adds it in LIST or SET mode, as the only writer: a LIST fills its first
     * empty entry; a SET its probe sequence's; a full LIST or a SET past 3/4 grows (through the scratch, under
     * the growing bit, so that a writer that dies meanwhile leaves every coupon in the file) unless DataSketches
     * promotes there.
     *
     * @return {@link #HELD}, {@link #ADDED} or {@link #PROMOTE} (the coupon is in the table, which the caller
     *     replays into the registers and then {@link #finish}es)
     */
    public int insert(int coupon) {
        long word = line.getLong(WORD);
        int lgArr = lgArr(word);
        int index = find(area, lgArr, mode(word) == LIST, coupon);
        if (index >= 0) {
            return HELD;
        }
        area.setAtIndex(ENTRY, ~index, coupon);
        int count = count(word) + 1;
        line.putLongRelease(WORD, word(mode(word), lgArr, count));
        if (mode(word) == LIST ? count < LIST_ENTRIES : 4 * count <= 3 << lgArr) {
            return ADDED;
        }
        if (mode(word) == LIST ? lgK < 8 : lgArr == lgK - 3) {
            return PROMOTE;
        }
        grow(word(mode(word), lgArr, count));
        return ADDED;
    }

    /**
     * Where a coupon is in a table, or {@code ~index} of the empty entry it goes to: a LIST's first empty
     * entry, a SET's probe sequence.
     */
    private static int find(MemorySegment table, int lgArr, boolean list, int coupon) {
        int mask = (1 << lgArr) - 1;
        int probe = list ? 0 : coupon & mask;
        int stride = list ? 1 : ((coupon & ADDRESS_MASK) >>> lgArr) | 1;
        while (true) {
            int held = table.getAtIndex(ENTRY, probe);
            if (held == 0) {
                return ~probe;
            }
            if (held == coupon) {
                return probe;
            }
            probe = (probe + stride) & mask;
        }
    }

    /** Doubles the table (a LIST becomes a SET of 2^5): the old one to the scratch, then reinserted. */
    private void grow(long word) {
        int oldEntries = 1 << lgArr(word);
        MemorySegment.copy(area, 0, scratch, 0, 4L * oldEntries);
        line.putLongRelease(WORD, word | GROWING);
        rebuild(word);
    }

    /** Rebuilds the table from the old one in the scratch, publishes the grown word and clears the scratch. */
    private void rebuild(long word) {
        int oldEntries = 1 << lgArr(word);
        int lgNew = mode(word) == LIST ? LG_MIN_SET : lgArr(word) + 1;
        area.asSlice(0, 4L << lgNew).fill((byte) 0);
        for (int i = 0; i < oldEntries; i++) {
            int coupon = scratch.getAtIndex(ENTRY, i);
            if (coupon != 0) {
                area.setAtIndex(ENTRY, ~find(area, lgNew, false, coupon), coupon);
            }
        }
        line.putLongRelease(WORD, word(SET, lgNew, count(word)));
        scratch.asSlice(0, 4L * oldEntries).fill((byte) 0);
    }

    /** Ends the coupon modes once the caller's registers hold the coupons: the word to HLL, the area cleared. */
    public void finish() {
        line.putLongRelease(WORD, word(HLL, 0, 0));
        area.fill((byte) 0);
    }

    /**
     * Ends the coupon modes for a {@code SHARED} writer whose registers hold the coupons (they change only under
     * the sole writer, so every such writer raises the same): the word to HLL if no other writer moved it,
     * then the area cleared.
     */
    public void finishShared() {
        long word = line.getLongAcquire(WORD);
        if (mode(word) != HLL && line.compareAndSetLong(WORD, word, word(HLL, 0, 0))) {
            area.fill((byte) 0);
        }
    }

    /**
     * Before the only writer's open checks the registers: completes a growth a dead writer left under the
     * growing bit and clears the scratch (the registers, which a coupon-mode sketch does not use and a dead
     * writer may have left partly promoted).
     */
    public void recover() {
        long word = line.getLong(WORD);
        if (mode(word) == HLL) {
            return;
        }
        if ((word & GROWING) != 0) {
            rebuild(word & ~GROWING);
        }
        scratch.fill((byte) 0);
    }

    /**
     * Whether the coupons reached DataSketches' promotion count and a dead writer left them unpromoted: the
     * only writer then promotes at its open.
     */
    public boolean promotionDue() {
        long word = line.getLong(WORD);
        return mode(word) != HLL && count(word) >= promotionCoupons(lgK);
    }

    /**
     * The coupons in table order (a LIST's in arrival order), as one moment of the file left them: the word,
     * the entries (from the scratch during a growth) and the word again, repeated until they agree.
     *
     * @return the coupons, or {@code null} in HLL mode
     */
    public int[] coupons() {
        int[] table = table();
        return table == null ? null : Arrays.stream(table).filter(c -> c != 0).toArray();
    }

    /**
     * The whole table as {@link #coupons()} takes it: 8 entries for a LIST, {@code 2^lgArr} for a SET.
     *
     * @return the table, or {@code null} in HLL mode
     */
    public int[] table() {
        while (true) {
            long word = line.getLongAcquire(WORD);
            if (mode(word) == HLL) {
                return null;
            }
            int[] table = new int[1 << lgArr(word)];
            MemorySegment from = (word & GROWING) != 0 ? scratch : area;
            MemorySegment.copy(from, ENTRY, 0, table, 0, table.length);
            if (line.getLongAfterLoads(WORD) != word) {
                continue;
            }
            if (count(table) != count(word)) {
                throw new IllegalStateException("the coupon area holds " + count(table) + " coupons, its word counts "
                        + count(word) + "; the file was corrupted while open");
            }
            return table;
        }
    }

    /**
     * Refuses a coupon word that no writer leaves and, when {@code thorough} (no other writer may be at work),
     * a table that is not DataSketches' for it.
     *
     * @throws CorruptSketchFileException naming the file, the summary line's or the area's offset and the fault
     */
    public void check(Path file, boolean thorough) throws CorruptSketchFileException {
        long word = line.getLongAcquire(WORD);
        int mode = mode(word);
        int lgArr = lgArr(word);
        int count = count(word);
        String fault = null;
        if (mode == 3 || (word & ~(GROWING | 0xFFFF_FFFF_0000_FF03L)) != 0 || mode == HLL && word != 0 || count < 0) {
            fault = "is not a coupon word of mode 0 (HLL), 1 (LIST) or 2 (SET)";
        } else if (mode == LIST && (lgArr != LG_LIST || count > LIST_ENTRIES)) {
            fault = "is a LIST of 2^" + lgArr + " entries and " + count + " coupons, expected 2^3 and at most 8";
        } else if (mode == SET && (lgArr < LG_MIN_SET || lgArr > lgK - 3 || count > tableCapacity(lgArr) + 1)) {
            fault = "is a SET of 2^" + lgArr + " entries and " + count + " coupons at lgK " + lgK
                    + ", expected 2^5 to 2^" + (lgK - 3) + " entries holding at most 3/4";
        }
        if (fault != null) {
            throw new CorruptSketchFileException(
                    file, "summary line byte " + WORD + " (coupon word 0x" + Long.toHexString(word) + ") " + fault);
        }
        if (thorough && mode != HLL && (word & GROWING) == 0) {
            int[] table = new int[1 << lgArr];
            MemorySegment.copy(area, ENTRY, 0, table, 0, table.length);
            String tableFault = tableFault(table, mode, count, lgArr);
            if (tableFault != null) {
                throw new CorruptSketchFileException(
                        file, "the coupon area (payload offset " + scratch.byteSize() + "): " + tableFault);
            }
        }
    }

    /** Why a table is not one DataSketches holds in this mode with this count, or {@code null}. */
    private static String tableFault(int[] table, int mode, int count, int lgArr) {
        if (count(table) != count) {
            return count(table) + " entries are occupied, the coupon word counts " + count;
        }
        int mask = table.length - 1;
        for (int i = 0; i < table.length; i++) {
            int coupon = table[i];
            if (coupon == 0) {
                continue;
            }
            if (coupon >>> ADDRESS_BITS == 0) {
                return "entry " + i + " (0x" + Integer.toHexString(coupon) + ") is a coupon of value 0";
            }
            boolean list = mode == LIST;
            int stride = list ? 1 : ((coupon & ADDRESS_MASK) >>> lgArr) | 1;
            for (int probe = list ? 0 : coupon & mask; probe != i; probe = (probe + stride) & mask) {
                if (table[probe] == 0) {
                    return "entry " + i + " is off its probe sequence (entry " + probe + " before it is empty)";
                }
                if (table[probe] == coupon) {
                    return "entry " + i + " repeats entry " + probe + " (0x" + Integer.toHexString(coupon) + ")";
                }
            }
        }
        return null;
    }

    private static int count(int[] table) {
        int count = 0;
        for (int coupon : table) {
            count += coupon == 0 ? 0 : 1;
        }
        return count;
    }
}
