package io.mapsketch.cli;

import io.mapsketch.OpenMode;
import io.mapsketch.membership.BlockedBloomFilter;
import io.mapsketch.membership.BlockedBloomSizing;
import io.mapsketch.membership.BloomFilter;
import io.mapsketch.membership.BloomSizing;
import io.mapsketch.membership.CountingBloomFilter;
import io.mapsketch.membership.CuckooFilter;
import io.mapsketch.membership.MembershipFilter;
import io.mapsketch.membership.RemovableFilter;
import io.mapsketch.membership.ScalableBloomFilter;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The demo's membership part: classic, blocked and counting Bloom filters, a cuckoo filter and a
 * scalable Bloom filter, each sized for the seed's 10,000 items at 1%, with false negatives counted and
 * false-positive rates measured over a million absent items next to the formula's.
 */
final class MembershipDemo {

    private static final int ITEMS = 10_000;
    private static final double RATE = 0.01;
    private static final int PROBES = 1_000_000;

    private final PrintWriter out;

    MembershipDemo(PrintWriter out) {
        this.out = out;
    }

    Path classicBloom(Path file) throws IOException {
        try (BloomFilter filter = BloomFilter.builder()
                .expectedItems(ITEMS)
                .falsePositiveRate(RATE)
                .create(file, OpenMode.EXCLUSIVE)) {
            out.printf(Locale.ROOT, "Bloom filter (classic), %,d items at %.0f%%%n", ITEMS, 100 * RATE);
            out.printf(
                    Locale.ROOT,
                    "  sized   %,d bits (%.1f KB), k = %d, %.1f bits per item"
                            + "   [m = -n ln p / (ln 2)^2, k = (m/n) ln 2]%n",
                    filter.bitCount(),
                    filter.bitCount() / 8.0 / 1024,
                    filter.hashCount(),
                    (double) filter.bitCount() / ITEMS);
            addMembers(filter, 0, ITEMS);
            out.printf(Locale.ROOT, "  added   %,d items; false negatives: %d%n", ITEMS, falseNegatives(filter));
            printRate(
                    "at capacity", filter, BloomSizing.falsePositiveRate(filter.bitCount(), filter.hashCount(), ITEMS));
            addMembers(filter, ITEMS, 2 * ITEMS);
            printRate(
                    "at twice capacity",
                    filter,
                    BloomSizing.falsePositiveRate(filter.bitCount(), filter.hashCount(), 2L * ITEMS));
        }
        return file;
    }

    void blockedBloom(Path file) throws IOException {
        try (BlockedBloomFilter filter = BlockedBloomFilter.builder()
                .expectedItems(ITEMS)
                .falsePositiveRate(RATE)
                .create(file, OpenMode.SHARED)) {
            long bits = filter.blockCount() * 512;
            out.printf(
                    Locale.ROOT,
                    "Blocked Bloom filter (one cache line per key), %,d items at %.0f%%%n",
                    ITEMS,
                    100 * RATE);
            out.printf(
                    Locale.ROOT,
                    "  sized   %,d blocks of 64 bytes, %.1f bits per item   [Poisson mixture over" + " block loads]%n",
                    filter.blockCount(),
                    (double) bits / ITEMS);
            addMembers(filter, 0, ITEMS);
            out.printf(Locale.ROOT, "  added   %,d items; false negatives: %d%n", ITEMS, falseNegatives(filter));
            printRate(
                    "at capacity",
                    filter,
                    BlockedBloomSizing.falsePositiveRate(filter.blockCount(), filter.bitsPerKey(), ITEMS));
        }
    }

    void countingBloom(Path file) throws IOException {
        try (CountingBloomFilter filter = CountingBloomFilter.builder()
                .expectedItems(ITEMS)
                .falsePositiveRate(RATE)
                .create(file, OpenMode.EXCLUSIVE)) {
            out.printf(Locale.ROOT, "Counting Bloom filter (4-bit counters), %,d items at %.0f%%%n", ITEMS, 100 * RATE);
            addMembers(filter, 0, ITEMS);
            out.printf(Locale.ROOT, "  added   %,d items; false negatives: %d%n", ITEMS, falseNegatives(filter));
            printRemovals(filter);
        }
    }

    void cuckoo(Path file) throws IOException {
        try (CuckooFilter filter = CuckooFilter.builder()
                .expectedItems(ITEMS)
                .falsePositiveRate(RATE)
                .create(file, OpenMode.EXCLUSIVE)) {
            out.printf(Locale.ROOT, "Cuckoo filter, %,d items at %.0f%%%n", ITEMS, 100 * RATE);
            out.printf(
                    Locale.ROOT,
                    "  sized   %,d buckets of 4 slots, %d-bit fingerprints, %.1f bits per slot%n",
                    filter.bucketCount(),
                    filter.fingerprintBits(),
                    filter.bitsPerSlot());
            addMembers(filter, 0, ITEMS);
            out.printf(
                    Locale.ROOT,
                    "  added   %,d items (%.0f%% of the slots); false negatives: %d%n",
                    ITEMS,
                    100 * filter.fillRatio(),
                    falseNegatives(filter));
            printRate("at capacity", filter, filter.expectedFalsePositiveRate());
            printRemovals(filter);
        }
    }

    void scalableBloom(Path directory) throws IOException {
        int first = ITEMS / 10;
        try (ScalableBloomFilter filter = ScalableBloomFilter.builder()
                .expectedItems(first)
                .falsePositiveRate(RATE)
                .create(directory, OpenMode.EXCLUSIVE)) {
            out.printf(
                    Locale.ROOT,
                    "Scalable Bloom filter, first link for %,d items, %.0f%% over all links (growth %.0f,"
                            + " tightening %.1f)%n",
                    first,
                    100 * RATE,
                    filter.growthFactor(),
                    filter.tighteningRatio());
            addMembers(filter, 0, ITEMS);
            out.printf(
                    Locale.ROOT,
                    "  added   %,d items (10 times the first link's): %d links, %,d bytes; false negatives: %d%n",
                    ITEMS,
                    filter.links(),
                    filter.memoryBytes(),
                    falseNegatives(filter));
            printRate("grown", filter, filter.expectedFalsePositiveRate());
        }
    }

    /** Removes the first half of the members and counts who is still found, kept and removed. */
    private void printRemovals(RemovableFilter filter) {
        for (int i = 0; i < ITEMS / 2; i++) {
            filter.remove(Demo.member(i));
        }
        int kept = 0;
        int stillReported = 0;
        for (int i = 0; i < ITEMS; i++) {
            boolean found = filter.mightContain(Demo.member(i));
            if (i < ITEMS / 2) {
                stillReported += found ? 1 : 0;
            } else {
                kept += found ? 1 : 0;
            }
        }
        out.printf(
                Locale.ROOT,
                "  removed %,d: kept items found %,d of %,d; removed items still"
                        + " reported %d (false positives, about %.2f%% expected)%n",
                ITEMS / 2,
                kept,
                ITEMS / 2,
                stillReported,
                100 * filter.expectedFalsePositiveRate());
    }

    private static void addMembers(MembershipFilter filter, int from, int to) {
        for (int i = from; i < to; i++) {
            filter.add(Demo.member(i));
        }
    }

    private static int falseNegatives(MembershipFilter filter) {
        int missing = 0;
        for (int i = 0; i < ITEMS; i++) {
            missing += filter.mightContain(Demo.member(i)) ? 0 : 1;
        }
        return missing;
    }

    private void printRate(String when, MembershipFilter filter, double formula) {
        int positives = 0;
        for (int i = 0; i < PROBES; i++) {
            positives += filter.mightContain(Demo.absent(i)) ? 1 : 0;
        }
        out.printf(
                Locale.ROOT,
                "  FPR %-18s measured %.2f%% over %,d absent items, formula %.2f%%%n",
                when,
                100.0 * positives / PROBES,
                PROBES,
                100 * formula);
    }
}
