package io.mapsketch.spark;

import io.mapsketch.OpenMode;
import io.mapsketch.Sketch;
import io.mapsketch.cardinality.HyperLogLog;
import io.mapsketch.cardinality.HyperLogLogBuilder;
import io.mapsketch.frequency.CountMinSketch;
import io.mapsketch.frequency.FrequencySketch;
import io.mapsketch.frequency.TopK;
import io.mapsketch.membership.BlockedBloomFilter;
import io.mapsketch.membership.BloomFilter;
import io.mapsketch.membership.MembershipFilter;
import java.io.Serializable;

/**
 * What a building aggregate makes: a kind and its parameters, checked by the engine's builder when the spec
 * is made (so that a bad parameter fails the query before it runs, with the engine's message), and how a key
 * is added to it.
 */
sealed interface SketchSpec extends Serializable {

    /** A new, empty, anonymous sketch of this spec, for one writer. */
    Sketch create();

    /** Adds one key value with its weight (1 for all but a weighted Count-Min aggregate). */
    void add(Sketch sketch, Object key, long weight);

    /**
     * A Bloom filter, blocked unless {@code classic}.
     *
     * @param expectedItems the items it is sized for
     * @param falsePositiveRate its false-positive rate at that many items
     * @param classic the classic layout instead of the blocked one
     */
    record Bloom(long expectedItems, double falsePositiveRate, boolean classic) implements SketchSpec {
        public Bloom {
            if (classic) {
                classicBuilder(expectedItems, falsePositiveRate);
            } else {
                blockedBuilder(expectedItems, falsePositiveRate);
            }
        }

        @Override
        public Sketch create() {
            return classic
                    ? classicBuilder(expectedItems, falsePositiveRate).createAnonymous(OpenMode.EXCLUSIVE)
                    : blockedBuilder(expectedItems, falsePositiveRate).createAnonymous(OpenMode.EXCLUSIVE);
        }

        @Override
        public void add(Sketch sketch, Object key, long weight) {
            Keys.add((MembershipFilter) sketch, key);
        }

        private static BloomFilter.Builder classicBuilder(long expectedItems, double falsePositiveRate) {
            return BloomFilter.builder().expectedItems(expectedItems).falsePositiveRate(falsePositiveRate);
        }

        private static BlockedBloomFilter.Builder blockedBuilder(long expectedItems, double falsePositiveRate) {
            return BlockedBloomFilter.builder().expectedItems(expectedItems).falsePositiveRate(falsePositiveRate);
        }
    }

    /**
     * A HyperLogLog.
     *
     * @param precision p, for 2^p registers
     */
    record Hll(int precision) implements SketchSpec {
        public Hll {
            builder(precision);
        }

        @Override
        public Sketch create() {
            return builder(precision).createAnonymous(OpenMode.EXCLUSIVE);
        }

        @Override
        public void add(Sketch sketch, Object key, long weight) {
            Keys.add((HyperLogLog) sketch, key);
        }

        private static HyperLogLogBuilder builder(int precision) {
            return HyperLogLog.builder().precision(precision);
        }
    }

    /**
     * A Count-Min sketch.
     *
     * @param epsilon the error bound, a fraction of the total count
     * @param delta the probability that an estimate exceeds it
     */
    record CountMin(double epsilon, double delta) implements SketchSpec {
        public CountMin {
            builder(epsilon, delta);
        }

        @Override
        public Sketch create() {
            return builder(epsilon, delta).createAnonymous(OpenMode.EXCLUSIVE);
        }

        @Override
        public void add(Sketch sketch, Object key, long weight) {
            Keys.add((FrequencySketch) sketch, key, weight);
        }

        private static CountMinSketch.Builder builder(double epsilon, double delta) {
            return CountMinSketch.builder().epsilon(epsilon).delta(delta);
        }
    }

    /**
     * A Top-K sketch: the k heaviest keys, with a Count-Min sketch of {@code epsilon} and {@code delta} (the
     * defaults of {@code mapsketch topk create}: 0.001 and 0.01), keys of at most
     * {@value TopK#DEFAULT_MAX_KEY_BYTES} bytes.
     *
     * @param k the candidates kept
     * @param epsilon the Count-Min error bound, a fraction of the total count
     * @param delta the probability that an estimate exceeds it
     */
    record TopKeys(int k, double epsilon, double delta) implements SketchSpec {
        /** The Count-Min error bound when none is given, as {@code mapsketch topk create} has it. */
        static final double DEFAULT_EPSILON = 0.001;
        /** The probability of a larger error when none is given, as {@code mapsketch topk create} has it. */
        static final double DEFAULT_DELTA = 0.01;

        public TopKeys {
            builder(k, epsilon, delta);
        }

        @Override
        public Sketch create() {
            return builder(k, epsilon, delta).createAnonymous(OpenMode.EXCLUSIVE);
        }

        @Override
        public void add(Sketch sketch, Object key, long weight) {
            Keys.add((FrequencySketch) sketch, key, weight);
        }

        private static TopK.Builder builder(int k, double epsilon, double delta) {
            return TopK.builder().k(k).epsilon(epsilon).delta(delta);
        }
    }
}
