package io.mapsketch.cli;

import io.mapsketch.OpenMode;
import io.mapsketch.similarity.MinHash;
import io.mapsketch.similarity.SimHash;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;

/**
 * The demo's similarity part: MinHash signatures of three sets whose Jaccard similarity is known, and a
 * SimHash table of documents searched for the near duplicates of an edited one.
 */
final class SimilarityDemo {

    private static final int SET_ITEMS = 10_000;

    private static final String[] DOCUMENTS = {
        "the quick brown fox jumps over the lazy dog while the farmer sleeps in the afternoon sun",
        "a sketch file is mapped from disk so that many processes share one filter without copying it",
        "the quick brown fox jumps over the lazy dog while the farmer sleeps in the warm afternoon sun",
        "count min sketches overestimate how often a key occurs and never underestimate it at all"
    };

    private final PrintWriter out;

    SimilarityDemo(PrintWriter out) {
        this.out = out;
    }

    void minHash(Path file) throws IOException {
        try (MinHash table = MinHash.builder().rows(3).standardError(0.02).create(file, OpenMode.EXCLUSIVE)) {
            // Row 0: items 0 .. 9,999; row 1: 5,000 .. 14,999 (J = 1/3); row 2: row 0 with 10% replaced (J = 9/11).
            for (int i = 0; i < SET_ITEMS; i++) {
                table.add(0, Demo.member(i));
                table.add(1, Demo.member(SET_ITEMS / 2 + i));
                table.add(2, i < SET_ITEMS / 10 ? Demo.absent(i) : Demo.member(i));
            }
            out.printf(
                    Locale.ROOT,
                    "MinHash, %,d slots per signature (%.1f%% standard error)   [k = ceil(1 / E^2)]%n",
                    table.signatureLength(),
                    100 * table.standardError());
            out.printf(
                    Locale.ROOT,
                    "  sets of %,d items: half shared, estimate %.3f (truth %.3f); 10%% replaced, estimate %.3f"
                            + " (truth %.3f)%n",
                    SET_ITEMS,
                    table.jaccard(0, 1),
                    1.0 / 3,
                    table.jaccard(0, 2),
                    9.0 / 11);
        }
    }

    void simHash(Path file) throws IOException {
        try (SimHash table = SimHash.builder().capacity(1_000).create(file, OpenMode.EXCLUSIVE)) {
            long[] fingerprints = new long[DOCUMENTS.length];
            for (int i = 0; i < DOCUMENTS.length; i++) {
                fingerprints[i] = fingerprint(table, DOCUMENTS[i]);
                table.append(fingerprints[i]);
            }
            out.printf(
                    Locale.ROOT, "SimHash, 64-bit fingerprints of %d documents (word 3-shingles)%n", DOCUMENTS.length);
            out.printf(
                    Locale.ROOT,
                    "  document 0 and its edit (document 2) differ in %d bits; unrelated documents in %d and %d;"
                            + " within 20 bits of document 0: %s%n",
                    SimHash.distance(fingerprints[0], fingerprints[2]),
                    SimHash.distance(fingerprints[0], fingerprints[1]),
                    SimHash.distance(fingerprints[0], fingerprints[3]),
                    Arrays.toString(table.within(fingerprints[0], 20)));
        }
    }

    private static long fingerprint(SimHash table, String document) {
        return table.features().addShingles(document, 3).fingerprint();
    }
}
