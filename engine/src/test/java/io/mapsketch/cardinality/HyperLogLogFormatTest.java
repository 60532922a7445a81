package io.mapsketch.cardinality;

import static org.quicktheories.generators.SourceDSL.integers;

import io.mapsketch.internal.HeaderFormatChecks;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The HyperLogLog format description at every precision: it reads back what it writes, at every
 * version the kind reads, and refuses a precision outside [4, 21], or a payload of another size.
 */
class HyperLogLogFormatTest {

    @Test
    void everyPrecision() {
        HeaderFormatChecks.check(
                integers()
                        .between(HyperLogLog.MIN_PRECISION, HyperLogLog.MAX_DATASKETCHES_PRECISION)
                        .map(precision -> new HyperLogLogFormat(precision)),
                HyperLogLogFormat::read,
                Map.of("precision", List.of(0L, 3L, 22L, 64L, -14L)));
    }
}
