package io.mapsketch.membership;

import io.mapsketch.SketchBuilder;

/**
 * A builder of membership filters, sized from the question's terms: how many items, and what
 * false-positive rate at that many.
 *
 * @param <B> the concrete builder
 * @param <S> the filter it builds
 */
public abstract sealed class FilterBuilder<B extends FilterBuilder<B, S>, S extends MembershipFilter>
        extends SketchBuilder<B, S>
        permits BloomFilter.Builder,
                BlockedBloomFilter.Builder,
                CountingBloomFilter.Builder,
                CuckooFilter.Builder,
                ScalableBloomFilter.Builder {

    private long expectedItems;
    private double falsePositiveRate;

    FilterBuilder() {}

    /**
     * Sets the capacity n: at n items the filter has the requested false-positive rate. Required.
     *
     * @param expectedItems n, at least 1
     * @return this builder
     * @throws IllegalArgumentException if out of range
     */
    public B expectedItems(long expectedItems) {
        if (expectedItems < 1) {
            throw new IllegalArgumentException("expectedItems = " + expectedItems + ", must be >= 1");
        }
        this.expectedItems = expectedItems;
        return self();
    }

    /**
     * Sets the false-positive rate p wanted at capacity. Required.
     *
     * @param falsePositiveRate p, in (0, 1)
     * @return this builder
     * @throws IllegalArgumentException if out of range
     */
    public B falsePositiveRate(double falsePositiveRate) {
        if (!(falsePositiveRate > 0 && falsePositiveRate < 1)) {
            throw new IllegalArgumentException("falsePositiveRate = " + falsePositiveRate + ", must be in (0, 1)");
        }
        this.falsePositiveRate = falsePositiveRate;
        return self();
    }

    final long expectedItems() {
        requireSet("expectedItems", expectedItems > 0);
        return expectedItems;
    }

    final double falsePositiveRate() {
        requireSet("falsePositiveRate", falsePositiveRate > 0);
        return falsePositiveRate;
    }
}
