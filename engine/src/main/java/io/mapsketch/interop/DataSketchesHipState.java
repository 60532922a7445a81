package io.mapsketch.interop;

/**
 * What a DataSketches HLL-mode sketch keeps beside its registers: the HIP accumulator (its in-order
 * estimate), the two halves of {@code sum(2^-value)} over the registers (kxq0 for values below 32,
 * kxq1 for the rest, so that each half stays exact in a double), and the smallest register value with
 * the number of registers at it (for HLL_6 and HLL_8, curMin stays 0 and numAtCurMin counts zeros).
 *
 * @param hipAccumulator the historic inverse probability estimate accumulated over the updates
 * @param kxq0 the sum of {@code 2^-value} over the registers below 32
 * @param kxq1 the sum of {@code 2^-value} over the registers of 32 and more
 * @param curMin the smallest register value the sketch tracks
 * @param numAtCurMin how many registers hold {@code curMin}
 */
record DataSketchesHipState(double hipAccumulator, double kxq0, double kxq1, int curMin, int numAtCurMin) {}
