package io.mapsketch.cli;

import io.mapsketch.OpenMode;
import io.mapsketch.membership.BlockedBloomFilter;
import io.mapsketch.membership.BloomFilter;
import io.mapsketch.membership.CountingBloomFilter;
import io.mapsketch.membership.CuckooFilter;
import io.mapsketch.membership.MembershipFilter;
import io.mapsketch.membership.ScalableBloomFilter;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;

/**
 * What the Bloom ({@code bf}) and cuckoo ({@code cf}) verbs share, for any membership filter file:
 * adding items as a shared writer, answering 1 or 0 per item, and the figures {@code info} prints.
 */
final class FilterVerbs {

    private FilterVerbs() {}

    /** Adds every item to the filter file, opened as a shared writer, through the batch add. */
    static void add(FileAndItems input, CommandIo io) throws IOException {
        try (MembershipFilter filter = MembershipFilter.open(input.file(), OpenMode.SHARED)) {
            input.eachBatch(io, filter::addAll);
        }
    }

    /**
     * Prints 1 if the filter may contain the item, 0 if it certainly does not, one line per item;
     * the items are looked up in batches.
     */
    static void exists(FileAndItems input, CommandIo io) throws IOException {
        PrintWriter out = io.out();
        try (MembershipFilter filter = MembershipFilter.open(input.file(), OpenMode.READ_ONLY)) {
            boolean[][] results = {new boolean[0]};
            input.eachBatch(io.forAnswers(), (data, offsets, lengths, count) -> {
                if (results[0].length < count) {
                    results[0] = new boolean[count];
                }
                filter.mightContainAll(data, offsets, lengths, count, results[0]);
                for (int i = 0; i < count; i++) {
                    out.println(results[0][i] ? 1 : 0);
                }
            });
        }
    }

    /** The filter's shape, then its memory, capacity, target and current false-positive rates. */
    static void describe(Path file, Map<String, Object> facts) throws IOException {
        try (MembershipFilter filter = MembershipFilter.open(file, OpenMode.READ_ONLY)) {
            switch (filter) {
                case BloomFilter classic -> {
                    facts.put("bits", classic.bitCount());
                    facts.put("hashes", classic.hashCount());
                }
                case BlockedBloomFilter blocked -> {
                    facts.put("blocks", blocked.blockCount());
                    facts.put("bits per key", blocked.bitsPerKey());
                }
                case CountingBloomFilter counting -> {
                    facts.put("counters", counting.counterCount());
                    facts.put("hashes", counting.hashCount());
                }
                case CuckooFilter cuckoo -> {
                    facts.put("buckets", cuckoo.bucketCount());
                    facts.put("fingerprint bits", cuckoo.fingerprintBits());
                    facts.put("bits per slot", cuckoo.bitsPerSlot());
                    facts.put("lock recoveries", cuckoo.lockRecoveries());
                }
                case ScalableBloomFilter scalable -> {
                    facts.put("links", scalable.links());
                    facts.put("growth factor", scalable.growthFactor());
                    facts.put("tightening ratio", scalable.tighteningRatio());
                }
            }
            facts.put("memory bytes", filter.memoryBytes());
            facts.put("expected items", filter.expectedItems());
            facts.put("target false-positive rate", filter.targetFalsePositiveRate());
            facts.put("fill ratio", filter.fillRatio());
            facts.put("current false-positive rate", filter.expectedFalsePositiveRate());
            facts.put("over capacity", filter.isOverCapacity());
        }
    }
}
