package io.mapsketch.interop;

/**
 * DataSketches' HLL update rule and the HIP state it keeps, for a sketch whose registers live
 * elsewhere. A key is hashed with Murmur3_x64_128, seed {@link #SEED}: a {@code long} as its 8
 * little-endian bytes, a {@code String} as its UTF-8 bytes, a {@code byte[]} as is (an empty string or
 * array is no update). The key's slot is the low lgK bits of the first 64-bit half, its value the
 * number of leading zeros of the second half plus one, capped at 63; a register takes the larger of
 * its value and the key's.
 *
 * <p>Each time a register rises, {@link #registerRaised} adds {@code k / sum(2^-value)} (taken before
 * the change) to the HIP accumulator and moves the register's term between the kxq sums, as an HLL_8
 * sketch does: the same changes in the same order give the same accumulator, bit for bit. Not
 * thread-safe; each call costs a division.
 */
final class DataSketchesHllUpdate {

    /** The Murmur3_x64_128 seed DataSketches hashes every key with. */
    public static final long SEED = 9001L;

    private final int lgK;
    private double hipAccumulator;
    private double kxq0;
    private double kxq1;
    private final int curMin;
    private int numAtCurMin;

    private DataSketchesHllUpdate(int lgK, DataSketchesHipState state) {
        this.lgK = lgK;
        this.hipAccumulator = state.hipAccumulator();
        this.kxq0 = state.kxq0();
        this.kxq1 = state.kxq1();
        this.curMin = state.curMin();
        this.numAtCurMin = state.numAtCurMin();
    }

    /**
     * Starts the state of registers that are all zero, as a new HLL-mode array of DataSketches has it.
     *
     * @param lgK log2 of the number of registers, 4 to 21
     * @return the state: accumulator 0, kxq0 {@code 2^lgK}, kxq1 0, every register at curMin 0
     * @throws IllegalArgumentException if lgK is out of range
     */
    public static DataSketchesHllUpdate startingEmpty(int lgK) {
        int k = 1 << checkLgK(lgK);
        return new DataSketchesHllUpdate(lgK, new DataSketchesHipState(0, k, 0, 0, k));
    }

    /**
     * Continues from a state read from an image or taken by {@link #state()}.
     *
     * @param lgK log2 of the number of registers, 4 to 21
     * @param state the state to continue from
     * @return a state that further changes update
     * @throws IllegalArgumentException if lgK is out of range
     */
    public static DataSketchesHllUpdate resuming(int lgK, DataSketchesHipState state) {
        return new DataSketchesHllUpdate(checkLgK(lgK), state);
    }

    /**
     * Returns the slot a key's hash goes to.
     *
     * @param firstHalf the first 64-bit half of the key's Murmur3_x64_128 hash
     * @param lgK log2 of the number of registers, 4 to 21 (not checked)
     * @return the slot, 0 to {@code 2^lgK - 1}
     */
    public static int slot(long firstHalf, int lgK) {
        return (int) firstHalf & ((1 << lgK) - 1);
    }

    /**
     * Returns the register value a key's hash offers.
     *
     * @param secondHalf the second 64-bit half of the key's Murmur3_x64_128 hash
     * @return its leading zeros plus one, 1 to 63
     */
    public static int value(long secondHalf) {
        return Math.min(Long.numberOfLeadingZeros(secondHalf), DataSketchesHllLayout.MAX_VALUE - 1) + 1;
    }

    /**
     * Returns the coupon a key's hash makes, as LIST and SET modes store it.
     *
     * @param firstHalf the first 64-bit half of the key's Murmur3_x64_128 hash
     * @param secondHalf the second half
     * @return {@code value << 26 | (low 26 bits of the first half)}, never 0
     */
    public static int coupon(long firstHalf, long secondHalf) {
        return value(secondHalf) << DataSketchesHllLayout.KEY_BITS | (int) firstHalf & DataSketchesHllLayout.KEY_MASK;
    }

    /**
     * Accounts for one register rising, before the next change: the HIP accumulator grows by
     * {@code 2^lgK / (kxq0 + kxq1)}, the register's term moves from {@code 2^-oldValue} to
     * {@code 2^-newValue}, and a register leaving 0 leaves numAtCurMin.
     *
     * @param oldValue the register's value before, 0 to 62
     * @param newValue its value after, above {@code oldValue}, at most 63 (not checked)
     */
    public void registerRaised(int oldValue, int newValue) {
        hipAccumulator += (1 << lgK) / (kxq0 + kxq1);
        if (oldValue < 32) {
            kxq0 -= inversePowerOfTwo(oldValue);
        } else {
            kxq1 -= inversePowerOfTwo(oldValue);
        }
        if (newValue < 32) {
            kxq0 += inversePowerOfTwo(newValue);
        } else {
            kxq1 += inversePowerOfTwo(newValue);
        }
        if (oldValue == 0) {
            numAtCurMin--;
        }
    }

    /**
     * Returns the state as it stands.
     *
     * @return the accumulator, the kxq sums, curMin and numAtCurMin
     */
    public DataSketchesHipState state() {
        return new DataSketchesHipState(hipAccumulator, kxq0, kxq1, curMin, numAtCurMin);
    }

    /** Returns {@code 2^-value}, exactly. */
    static double inversePowerOfTwo(int value) {
        return Double.longBitsToDouble((1023L - value) << 52);
    }

    static int checkLgK(int lgK) {
        if (lgK < DataSketchesHllLayout.MIN_LG_K || lgK > DataSketchesHllLayout.MAX_LG_K) {
            throw new IllegalArgumentException("lgK is " + lgK + ", expected 4 to 21");
        }
        return lgK;
    }
}
