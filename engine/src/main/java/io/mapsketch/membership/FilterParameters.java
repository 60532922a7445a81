package io.mapsketch.membership;

import io.mapsketch.internal.HeaderParameter;

/**
 * The header parameters that the classic, blocked, counting and cuckoo filters' formats share: the
 * capacity and the rate asked for, in slots 2 and 3.
 */
final class FilterParameters {

    /** n, the capacity: slot 2, at least 1. */
    static final HeaderParameter.Ranged EXPECTED_ITEMS = HeaderParameter.ranged(2, "expected items", 1, Long.MAX_VALUE);
    /** p, the false-positive rate at capacity: slot 3, in (0, 1). */
    static final HeaderParameter.Interval FALSE_POSITIVE_RATE =
            HeaderParameter.interval(3, "false-positive rate", 0, 1);

    private FilterParameters() {}
}
