package io.mapsketch.interop;

import io.mapsketch.internal.DataSketchesCoupons;
import io.mapsketch.internal.DataSketchesHllEstimators;
import java.util.Arrays;

/**
 * What a DataSketches HLL image holds, in neutral terms: coupons in LIST and SET modes, register
 * values in HLL mode (whatever the packing; an HLL_4's offsets and exceptions resolved). Each image
 * answers the estimate DataSketches gives for the same bytes, by the estimator DataSketches picks for
 * its mode, and says which one that was.
 */
sealed interface DataSketchesHllImage permits DataSketchesHllImage.Coupons, DataSketchesHllImage.Registers {

    /**
     * Returns log2 of the sketch's number of registers.
     *
     * @return lgK, 4 to 21
     */
    int lgK();

    /**
     * Returns the packing the sketch uses, or will use once in HLL mode.
     *
     * @return the target type
     */
    DataSketchesHllType type();

    /**
     * Returns the mode the image was in.
     *
     * @return LIST, SET or HLL
     */
    DataSketchesHllMode mode();

    /**
     * Returns whether the image was compact (entries only) rather than updatable (whole tables).
     *
     * @return the image's compact flag
     */
    boolean compact();

    /**
     * Returns which estimator DataSketches answers with for this image.
     *
     * @return COUPON in LIST and SET modes; in HLL mode COMPOSITE when out of order, HIP otherwise
     */
    DataSketchesHllEstimator estimator();

    /**
     * Returns the estimate DataSketches gives for the image.
     *
     * @return the estimated number of distinct keys; O(1)
     */
    double estimate();

    /**
     * Returns the lower bound DataSketches gives.
     *
     * @param numStdDev 1, 2 or 3 standard deviations
     * @return the bound, at most {@link #estimate()}
     * @throws IllegalArgumentException if numStdDev is out of range
     */
    double lowerBound(int numStdDev);

    /**
     * Returns the upper bound DataSketches gives.
     *
     * @param numStdDev 1, 2 or 3 standard deviations
     * @return the bound, at least {@link #estimate()}
     * @throws IllegalArgumentException if numStdDev is out of range
     */
    double upperBound(int numStdDev);

    /**
     * A LIST or SET image: the distinct coupons, each {@code value << 26 | address}.
     *
     * @param lgK log2 of the number of registers
     * @param type the target type
     * @param mode LIST or SET
     * @param compact whether the image was compact
     * @param coupons the coupons, in the image's order; copied in and out
     * @param table the table {@code HllSketch.heapify} holds for the image: an updatable image's own, else the
     *     coupons inserted in the image's order ({@link DataSketchesCoupons#tableOf}); copied in and out
     */
    record Coupons(
            int lgK, DataSketchesHllType type, DataSketchesHllMode mode, boolean compact, int[] coupons, int[] table)
            implements DataSketchesHllImage {

        /** Copies the coupons and the table in. */
        public Coupons {
            coupons = coupons.clone();
            table = table.clone();
        }

        /**
         * The coupons of an image whose table DataSketches rebuilds by inserting them in order.
         *
         * @param lgK log2 of the number of registers
         * @param type the target type
         * @param mode LIST or SET
         * @param compact whether the image was compact
         * @param coupons the coupons, in the image's order
         */
        public Coupons(int lgK, DataSketchesHllType type, DataSketchesHllMode mode, boolean compact, int[] coupons) {
            this(
                    lgK,
                    type,
                    mode,
                    compact,
                    coupons,
                    DataSketchesCoupons.tableOf(lgK, mode == DataSketchesHllMode.SET, coupons));
        }

        /**
         * Returns the table DataSketches holds for the image.
         *
         * @return a copy: 8 entries for a LIST, {@code 2^lgArr} for a SET
         */
        @Override
        public int[] table() {
            return table.clone();
        }

        /**
         * Returns the coupons.
         *
         * @return a copy, in the image's order
         */
        @Override
        public int[] coupons() {
            return coupons.clone();
        }

        /**
         * Returns how many coupons the image holds.
         *
         * @return the coupon count, the input of the coupon estimator
         */
        public int couponCount() {
            return coupons.length;
        }

        @Override
        public DataSketchesHllEstimator estimator() {
            return DataSketchesHllEstimator.COUPON;
        }

        @Override
        public double estimate() {
            return DataSketchesHllEstimators.couponEstimate(coupons.length);
        }

        @Override
        public double lowerBound(int numStdDev) {
            return DataSketchesHllEstimators.couponBound(
                    coupons.length, DataSketchesHllEstimators.checkNumStdDev(numStdDev), false);
        }

        @Override
        public double upperBound(int numStdDev) {
            return DataSketchesHllEstimators.couponBound(
                    coupons.length, DataSketchesHllEstimators.checkNumStdDev(numStdDev), true);
        }

        /**
         * Returns the HLL_8 sketch DataSketches makes of these coupons when it leaves LIST or SET mode:
         * each coupon raises its slot's register, and the HIP accumulator starts at the coupon estimate.
         *
         * @return an updatable, in-order HLL_8 image of the same lgK; O(2^lgK)
         */
        public Registers promoted() {
            byte[] registers = new byte[1 << lgK];
            DataSketchesHllUpdate update = DataSketchesHllUpdate.startingEmpty(lgK);
            for (int coupon : coupons) {
                int slot = coupon & (registers.length - 1);
                int value = coupon >>> DataSketchesHllLayout.KEY_BITS;
                if (value > registers[slot]) {
                    update.registerRaised(registers[slot], value);
                    registers[slot] = (byte) value;
                }
            }
            DataSketchesHipState state = update.state();
            return new Registers(
                    lgK,
                    DataSketchesHllType.HLL_8,
                    false,
                    false,
                    registers,
                    new DataSketchesHipState(estimate(), state.kxq0(), state.kxq1(), 0, state.numAtCurMin()));
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Coupons that
                    && lgK == that.lgK
                    && type == that.type
                    && mode == that.mode
                    && compact == that.compact
                    && Arrays.equals(coupons, that.coupons);
        }

        @Override
        public int hashCode() {
            return 31 * Arrays.hashCode(coupons) + lgK;
        }

        @Override
        public String toString() {
            return mode + " " + type + " lgK " + lgK + (compact ? " compact, " : " updatable, ") + coupons.length
                    + " coupons";
        }
    }

    /**
     * An HLL-mode image: one value per slot and the state beside them.
     *
     * @param lgK log2 of the number of registers
     * @param type the packing the image used
     * @param compact whether the image was compact
     * @param outOfOrder whether the sketch was merged (its HIP accumulator no longer answers)
     * @param registers the value of each slot, 0 to 63; copied in and out
     * @param state the HIP accumulator, kxq sums, curMin and numAtCurMin the image records
     */
    record Registers(
            int lgK,
            DataSketchesHllType type,
            boolean compact,
            boolean outOfOrder,
            byte[] registers,
            DataSketchesHipState state)
            implements DataSketchesHllImage {

        /** Copies the registers in. */
        public Registers {
            registers = registers.clone();
        }

        /**
         * Returns the register values.
         *
         * @return a copy, one byte per slot
         */
        @Override
        public byte[] registers() {
            return registers.clone();
        }

        /**
         * Returns one register's value.
         *
         * @param slot 0 to {@code 2^lgK - 1}
         * @return its value, 0 to 63
         */
        public int register(int slot) {
            return registers[slot];
        }

        @Override
        public DataSketchesHllMode mode() {
            return DataSketchesHllMode.HLL;
        }

        @Override
        public DataSketchesHllEstimator estimator() {
            return outOfOrder ? DataSketchesHllEstimator.COMPOSITE : DataSketchesHllEstimator.HIP;
        }

        @Override
        public double estimate() {
            return outOfOrder
                    ? DataSketchesHllEstimators.compositeEstimate(
                            lgK, state.kxq0() + state.kxq1(), state.curMin(), state.numAtCurMin())
                    : state.hipAccumulator();
        }

        @Override
        public double lowerBound(int numStdDev) {
            return bound(numStdDev, false);
        }

        @Override
        public double upperBound(int numStdDev) {
            return bound(numStdDev, true);
        }

        private double bound(int numStdDev, boolean upper) {
            return DataSketchesHllEstimators.hllBound(
                    lgK,
                    estimate(),
                    outOfOrder,
                    state.curMin(),
                    state.numAtCurMin(),
                    DataSketchesHllEstimators.checkNumStdDev(numStdDev),
                    upper);
        }

        /**
         * Returns this sketch as DataSketches converts it to HLL_8 ({@code copyAs(HLL_8)}): the same
         * values and HIP accumulator and order; kxq sums and numAtCurMin recounted for an HLL_4 or HLL_6.
         *
         * @return this image if it is HLL_8 already, else an updatable HLL_8 image; O(2^lgK)
         */
        public Registers asHll8() {
            if (type == DataSketchesHllType.HLL_8) {
                return this;
            }
            DataSketchesHllUpdate update = DataSketchesHllUpdate.startingEmpty(lgK);
            for (byte value : registers) {
                if (value != 0) {
                    update.registerRaised(0, value);
                }
            }
            DataSketchesHipState counted = update.state();
            return new Registers(
                    lgK,
                    DataSketchesHllType.HLL_8,
                    false,
                    outOfOrder,
                    registers,
                    new DataSketchesHipState(
                            state.hipAccumulator(), counted.kxq0(), counted.kxq1(), 0, counted.numAtCurMin()));
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Registers that
                    && lgK == that.lgK
                    && type == that.type
                    && compact == that.compact
                    && outOfOrder == that.outOfOrder
                    && Arrays.equals(registers, that.registers)
                    && state.equals(that.state);
        }

        @Override
        public int hashCode() {
            return 31 * Arrays.hashCode(registers) + state.hashCode();
        }

        @Override
        public String toString() {
            return "HLL " + type + " lgK " + lgK + (compact ? " compact" : " updatable")
                    + (outOfOrder ? ", out of order, " : ", in order, ") + state;
        }
    }
}
