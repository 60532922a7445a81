package io.mapsketch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mapsketch.internal.Regions;
import io.mapsketch.memory.SketchFileLayout;
import io.mapsketch.memory.SketchHeader;

/**
 * The ranges of every kind's header parameters as the parameter table of {@code docs/file-format.md}
 * states them, written from that table rather than from the readers' code, so that a header a builder
 * sizes is judged by what the format promises to open (the readers are judged by the round trip of
 * the shapes small enough to write).
 */
final class DocumentedRanges {

    private DocumentedRanges() {}

    /** Fails unless every parameter of the header is in its documented range and the file length fits. */
    static void requireAccepted(SketchHeader header) {
        String shape = header.toString();
        assertTrue(
                header.payloadOffset() == SketchFileLayout.HEADER_LENGTH
                        && header.payloadLength() >= 0
                        && header.fileLength() > header.payloadLength(),
                "the file length fits in a long: " + shape);
        switch (Regions.kind(header)) {
            case BLOOM -> {
                probed(header, Long.MAX_VALUE - 511);
                switch (header.hashScheme()) {
                    case GUAVA_MURMUR3_128, SPARK_MURMUR3_32 -> oneOf(header, 4, 1, 2);
                    default -> oneOf(header, 4, 0);
                }
            }
            case COUNTING_BLOOM -> probed(header, (1L << 61) - 128);
            case BLOCKED_BLOOM -> {
                within(header, 0, 1, (1L << 57) - 1);
                oneOf(header, 1, 8, 16);
                within(header, 2, 1, Long.MAX_VALUE);
                rate(header, 3, 0, 1);
            }
            case SCALABLE_BLOOM -> {
                within(header, 0, 1, Long.MAX_VALUE);
                rate(header, 1, 0, 1);
                rate(header, 2, 0, 1);
                rate(header, 3, 0.999, 1e6);
            }
            case CUCKOO -> {
                within(header, 0, 2, 1L << 32);
                assertEquals(1, Long.bitCount(header.parameter(0)), "buckets are a power of two: " + shape);
                oneOf(header, 1, 8, 12, 16);
                within(header, 2, 1, Long.MAX_VALUE);
                rate(header, 3, 0, 1);
                oneOf(header, 4, 0, 1);
            }
            case COUNT_MIN -> countMin(header);
            case TOP_K -> {
                countMin(header);
                within(header, 6, 1, 1 << 20);
                within(header, 7, 8, 65_536);
            }
            case HYPERLOGLOG -> within(header, 0, 4, 21);
            case MINHASH -> {
                within(header, 0, 1, 65_536);
                oneOf(header, 1, 1, 2);
                within(header, 2, 1, Integer.MAX_VALUE);
            }
            case SIMHASH -> {
                within(header, 0, 1, 1L << 40);
                oneOf(header, 1, 1);
            }
            case HYPERLOGLOG_TABLE -> {
                within(header, 0, 4, 18);
                table(header);
            }
            case BLOOM_TABLE -> {
                within(header, 0, 1, 1L << 24);
                table(header);
                oneOf(header, 3, 8, 16);
                within(header, 4, 1, Long.MAX_VALUE);
                rate(header, 5, 0, 1);
            }
            case COUNT_MIN_TABLE -> {
                within(header, 0, 1, Integer.MAX_VALUE);
                table(header);
                within(header, 3, 1, 745);
                oneOf(header, 4, 4, 8);
                double epsilon = rate(header, 5, 0, 1);
                double delta = rate(header, 6, 0, 1);
                assertEquals(Math.ceil(Math.E / epsilon), header.parameter(0), "width = ceil(e / epsilon): " + header);
                double rows = Math.max(1, Math.ceil(-Math.log(delta)));
                assertTrue(Math.abs(rows - header.parameter(3)) <= 1, "depth = ceil(ln(1 / delta)): " + header);
                long rowBytes = Math.ceilDiv(header.parameter(0) * header.parameter(4), 64) * 64;
                assertTrue(rowBytes * header.parameter(3) <= 1L << 30, "a key's sketch is at most 1 GiB: " + header);
            }
            default -> throw new AssertionError("no documented ranges for " + Regions.kind(header));
        }
    }

    /** The key capacity N in [1, 2^32] and the heap H, a multiple of 64 in [64, 2^43]. */
    private static void table(SketchHeader header) {
        within(header, 1, 1, 1L << 32);
        within(header, 2, 64, 1L << 43);
        assertEquals(0, header.parameter(2) % 64, "the heap is a multiple of 64: " + header);
    }

    private static void probed(SketchHeader header, long maxCells) {
        within(header, 0, 1, maxCells);
        within(header, 1, 1, 64);
        within(header, 2, 1, Long.MAX_VALUE);
        rate(header, 3, 0, 1);
    }

    /** Width {@code ceil(e / eps)} (a 32-bit count), depth {@code ceil(ln(1 / delta))} up to 745, 4- or 8-byte counters. */
    private static void countMin(SketchHeader header) {
        within(header, 0, 1, Integer.MAX_VALUE);
        within(header, 1, 1, 745);
        oneOf(header, 2, 4, 8);
        oneOf(header, 3, 0, 1);
        double epsilon = rate(header, 4, 0, 1);
        double delta = rate(header, 5, 0, 1);
        assertEquals(Math.ceil(Math.E / epsilon), header.parameter(0), "width = ceil(e / epsilon): " + header);
        double rows = Math.max(1, Math.ceil(-Math.log(delta)));
        assertTrue(Math.abs(rows - header.parameter(1)) <= 1, "depth = ceil(ln(1 / delta)): " + header);
    }

    private static void within(SketchHeader header, int index, long min, long max) {
        long value = header.parameter(index);
        assertTrue(
                value >= min && value <= max,
                "parameter " + index + " = " + value + " outside [" + min + ", " + max + "]: " + header);
    }

    private static void oneOf(SketchHeader header, int index, long... allowed) {
        long value = header.parameter(index);
        for (long candidate : allowed) {
            if (value == candidate) {
                return;
            }
        }
        throw new AssertionError("parameter " + index + " = " + value + " is none of the documented values: " + header);
    }

    private static double rate(SketchHeader header, int index, double above, double below) {
        double value = Double.longBitsToDouble(header.parameter(index));
        assertTrue(
                value > above && value < below,
                "parameter " + index + " = " + value + " outside (" + above + ", " + below + "): " + header);
        return value;
    }
}
