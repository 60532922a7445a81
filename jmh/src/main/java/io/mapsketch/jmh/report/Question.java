package io.mapsketch.jmh.report;

import java.util.List;

/**
 * A question a user asks of a sketch library ("is it in the set?", "how many distinct?"), with the
 * benchmark classes that answer it.
 *
 * @param title the section heading
 * @param suites the benchmark classes, in the order shown
 */
record Question(String title, List<Suite> suites) {

    /**
     * The questions of the report, in order. Each summary is short: the class's Javadoc, linked from
     * the report, says exactly how every implementation is configured and fed.
     */
    static List<Question> all() {
        return List.of(
                new Question(
                        "Membership",
                        List.of(
                                new Suite(
                                        "BloomBenchmark",
                                        "Bloom filters",
                                        "1% false-positive rate, sized for `items` keys; lookups are half present, half "
                                                + "absent keys from a 128 MiB probe array (out of cache at 50M). Batch "
                                                + "methods are a loop for the peers, which have no batch API. fastfilter's "
                                                + "`BlockedBloom` takes 11 bits per key (its 10 give 1.3%).",
                                        null,
                                        false,
                                        "mightContain"),
                                new Suite(
                                        "CuckooBenchmark",
                                        "Cuckoo filters",
                                        "16-bit fingerprints, buckets of four, 90% load; fastfilter's `Cuckoo16` gets "
                                                + "the same number of buckets. Adds fill filters from empty to 90%.",
                                        null,
                                        false,
                                        "mightContain"))),
                new Question(
                        "Frequency",
                        List.of(
                                new Suite(
                                        "CountMinBenchmark",
                                        "Count-Min sketches",
                                        "Delta 0.01 (5 rows) and the same width for every implementation; `size` is "
                                                + "mapsketch's counter bytes (32-bit counters). A Zipf stream of 2^24 keys. "
                                                + "Spark's counters are 64-bit; the peers' batch add and batch estimate are loops.",
                                        null,
                                        false,
                                        "estimate"),
                                new Suite(
                                        "TopKBenchmark",
                                        "Top-K (heavy hitters, k = 100)",
                                        "mapsketch's Count-Min of 2,719 x 5 plus 100 candidates against DataSketches' "
                                                + "`FrequentLongsSketch` and stream-lib's `StreamSummary` of 1,024 counters: "
                                                + "not Count-Min sketches, so their error guarantees differ.",
                                        null,
                                        false,
                                        null))),
                new Question(
                        "Distinct count",
                        List.of(new Suite(
                                "HyperLogLogBenchmark",
                                "HyperLogLog",
                                "Precision 12 and 14 (DataSketches lgK = p); adds include hashing the raw "
                                        + "`long` key (hash4j's sketches are fed `xxh3_64` hashes, as its users "
                                        + "do). DataSketches keeps a running estimate; mapsketch and hash4j "
                                        + "compute it from the registers.",
                                null,
                                false,
                                null))),
                new Question(
                        "Similarity",
                        List.of(
                                new Suite(
                                        "MinHashBenchmark",
                                        "MinHash",
                                        "k 64-bit slots for every implementation; hash4j has no table of signatures, "
                                                + "so `mostSimilar` is the loop its user writes.",
                                        null,
                                        false,
                                        null),
                                new Suite(
                                        "SimHashBenchmark",
                                        "SimHash",
                                        "`fingerprint`: features per second of a 64-bit fingerprint (hash4j's are "
                                                + "unweighted); `within`: queries per second, all fingerprints within 3 "
                                                + "bits of a query in a table of `items` (hash4j: a loop over a `long[]`).",
                                        null,
                                        false,
                                        null))),
                new Question(
                        "Tables",
                        List.of(
                                new Suite(
                                        "TableBenchmark",
                                        "Adds to a HyperLogLog table",
                                        "(key, item) pairs per second into a table of 1,000,000 keys at p = 14, in "
                                                + "batches of 1,024, keys drawn uniformly, each key holding 100 items; "
                                                + "target: 5 M pairs per second. No library peer holds a keyspace of "
                                                + "sketches; Redis's bytes per key are in the memory table.",
                                        null,
                                        false,
                                        null),
                                new Suite(
                                        "TableRollUpBenchmark",
                                        "Rolling 30 day tables into a month",
                                        "One operation merges one day table of 100,000 keys (10 items each, "
                                                + "`size` bytes) into the month, key by key; bytes per second is the "
                                                + "rate the day tables are read at, against memory speed "
                                                + "(`readSumReference` under Kernels). The month equals, key by key, "
                                                + "the month built from all items (checked in the setup). `recordReads` "
                                                + "is the floor of the roll-up's reads: each key's slot word and record "
                                                + "lines in every day table, in the roll-up's order, and nothing else; "
                                                + "target: the roll-up bounded by reading, near that floor.",
                                        null,
                                        true,
                                        null))),
                new Question(
                        "Kernels",
                        List.of(
                                new Suite(
                                        "KernelBenchmark",
                                        "Bulk kernels, scalar and Vector API",
                                        "One operation is one kernel call over `size` bytes of each operand; "
                                                + "`copyReference` and `readSumReference` are memory-speed references.",
                                        "scalar",
                                        true,
                                        null),
                                new Suite(
                                        "HashBenchmark",
                                        "XXH3-64 of `long` keys",
                                        "mapsketch's batch kernel against hash4j's `hashLongToLong`, equal bit for bit.",
                                        null,
                                        false,
                                        null))),
                new Question(
                        "Opening a stored filter",
                        List.of(new Suite(
                                "OpenBenchmark",
                                "Reopening a 1 GiB Bloom filter",
                                "Milliseconds from a filter file to its first answer: mapsketch maps and "
                                        + "validates; Guava's `readFrom` and DataSketches' `heapify` copy onto "
                                        + "the heap; DataSketches' `wrap` maps like mapsketch. A cold cache "
                                        + "needs root (the page cache is dropped before each open).",
                                null,
                                false,
                                null))));
    }
}
