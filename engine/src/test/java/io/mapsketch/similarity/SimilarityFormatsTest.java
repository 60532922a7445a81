package io.mapsketch.similarity;

import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import io.mapsketch.internal.HeaderFormatChecks;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The format descriptions of MinHash and SimHash files over parameters drawn from every value their
 * headers may hold: each reads back what it writes, at every version its kind reads, and refuses a
 * header with any parameter out of its range (a scheme other than the only one included), or a
 * payload of another size, naming it.
 */
class SimilarityFormatsTest {

    @Test
    void minHashSketches() {
        HeaderFormatChecks.check(
                integers()
                        .between(1, MinHashSizing.MAX_SLOTS)
                        .zip(integers().between(1, MinHash.MAX_ROWS), MinHashFormat::new),
                MinHashFormat::read,
                Map.of(
                        "signature length",
                        List.of(0L, -1L, 65_537L),
                        "derivation scheme",
                        List.of(0L, 2L, -1L),
                        "rows",
                        List.of(0L, -1L, 1L << 31)));
    }

    @Test
    void simHashTables() {
        HeaderFormatChecks.check(
                longs().between(1, SimHash.MAX_CAPACITY).map(SimHashFormat::new),
                SimHashFormat::read,
                Map.of("capacity", List.of(0L, -1L, (1L << 40) + 1), "fingerprint scheme", List.of(0L, 2L, -1L)));
    }
}
