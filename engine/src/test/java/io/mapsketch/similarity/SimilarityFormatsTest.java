package io.mapsketch.similarity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import io.mapsketch.internal.HeaderFormatChecks;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The format descriptions of MinHash and SimHash files over parameters drawn from every value their
 * headers may hold: each reads back what it writes, at every version its kind reads, and refuses a
 * header with any parameter out of its range (an unknown scheme included, and MinHash's scheme 2 in a
 * version before 5), or a payload of another size, naming it.
 */
class SimilarityFormatsTest {

    private static final Map<String, List<? extends Number>> MINHASH_REFUSED = Map.of(
            "signature length",
            List.of(0L, -1L, 65_537L),
            "derivation scheme",
            List.of(0L, 3L, -1L),
            "rows",
            List.of(0L, -1L, 1L << 31));

    /** Scheme 1 at every version 1 to 5, scheme 2 at version 5. */
    @Test
    void minHashSketches() {
        qt().withFixedSeed(2_026_1203L)
                .withExamples(400)
                .forAll(
                        integers().between(1, MinHashSizing.MAX_SLOTS),
                        integers().between(1, MinHash.MAX_ROWS),
                        integers().between(1, MinHashFormat.VERSIONS.newest()))
                .checkAssert((k, rows, version) -> {
                    HeaderFormatChecks.checkOne(
                            new MinHashFormat(k, rows, MinHashDerivation.CLASSIC),
                            version,
                            MinHashFormat::read,
                            MINHASH_REFUSED);
                    HeaderFormatChecks.checkOne(
                            new MinHashFormat(k, rows, MinHashDerivation.SUPER_MINHASH),
                            MinHashFormat.SUPER_MINHASH_VERSION,
                            MinHashFormat::read,
                            MINHASH_REFUSED);
                });
    }

    @Test
    void derivationSchemeTwoIsRefusedBeforeVersionFive() {
        MinHashFormat format = new MinHashFormat(128, 3, MinHashDerivation.SUPER_MINHASH);
        for (int version = 1; version < MinHashFormat.SUPER_MINHASH_VERSION; version++) {
            assertEquals(
                    "header parameter 'derivation scheme' (index 1) is 2, expected 1 in format version " + version
                            + " (scheme 2 from version 5)",
                    HeaderFormatChecks.refusal(
                            MinHashFormat::read,
                            HeaderFormatChecks.reader(format.encode(), format, format.payloadBytes(), version)));
        }
    }

    @Test
    void simHashTables() {
        HeaderFormatChecks.check(
                longs().between(1, SimHash.MAX_CAPACITY).map(SimHashFormat::new),
                SimHashFormat::read,
                Map.of("capacity", List.of(0L, -1L, (1L << 40) + 1), "fingerprint scheme", List.of(0L, 2L, -1L)));
    }
}
