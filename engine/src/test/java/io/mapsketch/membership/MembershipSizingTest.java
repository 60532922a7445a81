package io.mapsketch.membership;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.doubles;
import static org.quicktheories.generators.SourceDSL.longs;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** The seed numbers of the design, and the membership formulas' shape over their whole range. */
class MembershipSizingTest {

    @Test
    void seedNumbers() {
        assertEquals(95_851, BloomSizing.bits(10_000, 0.01));
        assertEquals(7, BloomSizing.hashes(95_851, 10_000));
    }

    @Test
    void hundredMillionItemsAtOnePerMille() {
        long bits = BloomSizing.bits(100_000_000, 0.001);
        assertEquals(171.4, bits / 8.0 / (1 << 20), 0.1, "about 172 MB (MiB)");
        assertEquals(10, BloomSizing.hashes(bits, 100_000_000));
    }

    @Test
    void filtersBeyondTwoToTheThirtyTwoBitsAreSized() {
        long bits = BloomSizing.bits(3_000_000_000L, 0.01);
        assertTrue(bits > 1L << 32, "bits = " + bits);
        assertEquals(
                0.01,
                BloomSizing.falsePositiveRate(bits, BloomSizing.hashes(bits, 3_000_000_000L), 3_000_000_000L),
                0.0005);
    }

    @Test
    void sizedFiltersMeetTheirRateAtCapacity() {
        qt().withFixedSeed(11L)
                .withExamples(500)
                .forAll(longs().between(1, 10_000_000_000L), doubles().between(1e-9, 0.5))
                .checkAssert((items, rate) -> {
                    long bits = BloomSizing.bits(items, rate);
                    int hashes = BloomSizing.hashes(bits, items);
                    double expected = BloomSizing.falsePositiveRate(bits, hashes, items);
                    assertTrue(expected <= rate * 1.05, items + " items at " + rate + ": FPR " + expected);
                });
    }

    @Test
    void cuckooNumbersOfTheLiterature() {
        assertEquals(12, CuckooSizing.bitsPerSlot(12), 1e-12, "12-bit fingerprints packed densely");
        assertEquals(12.63, CuckooSizing.bitsPerSlot(12) / 0.95, 0.005, "bits per key at 95% load");
        assertEquals(8, CuckooSizing.bitsPerSlot(8), 1e-12);
        assertEquals(16, CuckooSizing.bitsPerSlot(16), 1e-12);
        assertEquals(0.001854, CuckooSizing.falsePositiveRate(12, 0.95), 0.000001, "~0.18% at 95% load");
        assertEquals(2.0 * 4 * 0.95 / 4095, CuckooSizing.falsePositiveRate(12, 0.95), 0.000002, "about 2 b load / 2^f");
        assertEquals(0, CuckooSizing.falsePositiveRate(16, 0));
        assertEquals(8, CuckooSizing.fingerprintBits(0.5));
        assertEquals(8, CuckooSizing.fingerprintBits(8.0 / 255));
        assertEquals(12, CuckooSizing.fingerprintBits(0.01));
        assertEquals(16, CuckooSizing.fingerprintBits(0.001));
        assertEquals(16, CuckooSizing.fingerprintBits(CuckooSizing.LOWEST_RATE));
    }

    @Test
    void cuckooBucketsArePowersOfTwoHoldingTheItemsInNinetyPercentOfTheSlots() {
        assertEquals(2, CuckooSizing.buckets(1));
        assertEquals(2, CuckooSizing.buckets(7));
        assertEquals(4, CuckooSizing.buckets(8));
        assertEquals(4_096, CuckooSizing.buckets(10_000));
        assertEquals(1L << 32, CuckooSizing.buckets(15_461_882_265L));
        qt().withFixedSeed(13L)
                .withExamples(1_000)
                .forAll(longs().between(1, 15_461_882_265L))
                .checkAssert(items -> {
                    long buckets = CuckooSizing.buckets(items);
                    assertEquals(1, Long.bitCount(buckets));
                    double load = items / (4.0 * buckets);
                    assertTrue(
                            load <= 0.9 && (buckets == 2 || load > 0.45), items + " items in " + buckets + " buckets");
                });
    }

    @Test
    void parametersOutOfRangeAreNamed() {
        assertMessage("expectedItems = 0, must be >= 1", () -> BloomSizing.bits(0, 0.01));
        assertMessage("falsePositiveRate = 1.0, must be in (0, 1)", () -> BloomSizing.bits(10, 1.0));
        assertMessage(
                "expectedItems = 15461882266, must be in [1, 15461882265] for a cuckoo filter (at most 2^32"
                        + " buckets)",
                () -> CuckooSizing.buckets(15_461_882_266L));
        assertMessage("fingerprintBits = 10, must be 8, 12 or 16", () -> CuckooSizing.falsePositiveRate(10, 0.5));
        assertMessage("load = 1.5, must be in [0, 1]", () -> CuckooSizing.falsePositiveRate(12, 1.5));
        assertMessage(
                "falsePositiveRate = 1.0E-5, must be in [1.2207217517357137E-4, 1) for a cuckoo filter (16-bit"
                        + " fingerprints reach at best 2b / (2^16 - 1)); use a Bloom filter for lower rates",
                () -> CuckooSizing.fingerprintBits(1e-5));
    }

    /** The example: 100 items at 1e-300 asked more blocks than a long counts; the lowest rate is named. */
    @Test
    void blockedFiltersRefuseRatesNoFileReaches() {
        double lowest = BlockedBloomSizing.lowestRate(100, 16);
        assertTrue(lowest > 1e-45 && lowest < 1e-35, "about 5e-40: " + lowest);
        assertTrue(BlockedBloomSizing.lowestRate(100, 8) > lowest, "two bits per word reach lower rates");
        assertEquals(
                "falsePositiveRate = 1.0E-300, must be in [" + lowest + ", 1) for a blocked Bloom filter of"
                        + " expectedItems = 100 with 8 or 16 bits per key (the rate of 144115188075855807 blocks, the most a"
                        + " file holds); fewer items reach lower rates",
                assertThrows(IllegalArgumentException.class, () -> BlockedBloomSizing.bitsPerKey(100, 1e-300))
                        .getMessage());
        assertEquals(16, BlockedBloomSizing.bitsPerKey(100, lowest));
        long blocks = BlockedBloomSizing.blocks(100, lowest, 16);
        assertTrue(
                blocks > BlockedBloomSizing.MAX_BLOCKS / 2 && blocks <= BlockedBloomSizing.MAX_BLOCKS,
                "the lowest rate takes about every block a file holds: " + blocks);
        assertEquals(8, BlockedBloomSizing.bitsPerKey(Long.MAX_VALUE, 0.5), "at 64 keys per block 8 bits win");
    }

    /** A rate near 1 for many items once summed billions of Poisson terms; heavy blocks answer yes whole. */
    @Test
    void ratesOfOverfullBlockedFiltersAreSummedInBoundedTime() {
        assertEquals(1.0, BlockedBloomSizing.falsePositiveRate(1, 8, Long.MAX_VALUE));
        assertEquals(1.0, BlockedBloomSizing.falsePositiveRate(3, 16, 1L << 50));
        assertTrue(BlockedBloomSizing.blocks(1L << 50, Math.nextDown(1.0), 8) >= 1);
        double heavy = BlockedBloomSizing.falsePositiveRate(1_000, 8, 2_500_000);
        assertTrue(heavy > 0.999 && heavy <= 1, "2,500 keys per block: " + heavy);
    }

    @Test
    void classicLayoutsRefuseWhatTheirFormatCannotHold() {
        assertEquals(
                64,
                ProbedLayout.sized(1, BloomSizing.LOWEST_RATE, Long.MAX_VALUE - 511, "filter")
                        .hashes());
        assertEquals(
                64,
                ProbedLayout.sized(2, BloomSizing.LOWEST_RATE, Long.MAX_VALUE - 511, "filter")
                        .hashes());
        assertMessage(
                "falsePositiveRate = 1.0E-300, must be in [2^-64 = 5.421010862427522E-20, 1) for a classic Bloom"
                        + " filter (lower rates need more than 64 probes per key)",
                () -> ProbedLayout.sized(100, 1e-300, Long.MAX_VALUE - 511, "classic Bloom filter"));
        long most = BloomSizing.maxItems(0.01, 1_000_000);
        assertTrue(
                BloomSizing.bits(most, 0.01) <= 1_000_000 && BloomSizing.bits(most + 1, 0.01) > 1_000_000,
                most + " items");
        assertEquals(104_329, most);
        long counting = BloomSizing.maxItems(0.01, (1L << 61) - 128);
        assertMessage(
                "expectedItems = " + (counting + 1) + ", must be in [1, " + counting + "] for a counting Bloom"
                        + " filter at falsePositiveRate = 0.01 (at most 2305843009213693824 cells)",
                () -> ProbedLayout.sized(counting + 1, 0.01, (1L << 61) - 128, "counting Bloom filter"));
        assertEquals(0, BloomSizing.maxItems(0.01, 9), "one item at 1% takes 10 bits");
    }

    private static void assertMessage(String expected, Executable call) {
        assertEquals(
                expected, assertThrows(IllegalArgumentException.class, call).getMessage());
    }
}
