package io.mapsketch.enginetesting;

import io.mapsketch.membership.MembershipFilter;
import java.util.SplittableRandom;

/**
 * The false-positive rate of a filter as measured: random probes, almost surely absent. A measurement
 * needs hundreds of thousands to millions of probes, so they are drawn from a seed, not generated.
 */
public final class FalsePositives {

    private FalsePositives() {}

    /** The fraction of {@code probes} random keys of {@code seed} that the filter calls present. */
    public static double measuredFalsePositiveRate(MembershipFilter filter, long probes, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        long positives = 0;
        for (long i = 0; i < probes; i++) {
            if (filter.mightContain(random.nextLong())) {
                positives++;
            }
        }
        return (double) positives / probes;
    }
}
