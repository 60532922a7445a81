package io.mapsketch.kernels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** The facades refuse bad arguments before touching memory, naming parameter, value and range. */
class FacadeValidationTest {

    private final Arena arena = Arena.ofConfined();
    private final MemorySegment a = arena.allocate(64, 64);
    private final MemorySegment b = arena.allocate(64, 64);

    @AfterEach
    void close() {
        arena.close();
    }

    static void assertMessage(Class<? extends Throwable> type, Executable call, String... parts) {
        Throwable thrown = assertThrows(type, call);
        for (String part : parts) {
            assertTrue(thrown.getMessage().contains(part), () -> "'" + thrown.getMessage() + "' lacks '" + part + "'");
        }
    }

    @Test
    void sliceChecksNameParameterValueAndRange() {
        assertMessage(IllegalArgumentException.class, () -> BitSetKernels.or(a, 0, b, 0, -1), "words = -1", ">= 0");
        assertMessage(
                IndexOutOfBoundsException.class,
                () -> BitSetKernels.or(a, 16, b, 0, 7),
                "dstOffset = 16",
                "words = 7",
                "56 bytes",
                "dst of 64 bytes",
                "0 <= dstOffset <= 8");
        assertMessage(IndexOutOfBoundsException.class, () -> BitSetKernels.and(a, 0, b, -1, 1), "srcOffset = -1");
        assertMessage(
                IndexOutOfBoundsException.class,
                () -> BitSetKernels.popcount(a, 0, 9),
                "words = 9",
                "longer than the segment");
        assertMessage(
                IndexOutOfBoundsException.class,
                () -> BitSetKernels.popcountAnd(a, 0, b, 1, 8),
                "bOffset = 1",
                "0 <= bOffset <= 0");
        assertMessage(
                IllegalArgumentException.class,
                () -> CounterKernels.addSaturatingUnsignedLongs(a, 0, b, 0, Long.MAX_VALUE / 4),
                "too large");
        assertMessage(
                IndexOutOfBoundsException.class,
                () -> CounterKernels.addSaturatingUnsignedInts(a, 0, b, 4, 16),
                "srcOffset = 4",
                "counters = 16");
        assertMessage(
                IndexOutOfBoundsException.class,
                () -> RegisterKernels.maxUnsignedBytes(a, 1, b, 0, 64),
                "dstOffset = 1",
                "registers = 64");
        assertMessage(
                IndexOutOfBoundsException.class, () -> RegisterKernels.minUnsignedLongs(a, 0, b, 0, 9), "values = 9");
        assertMessage(
                IndexOutOfBoundsException.class,
                () -> HashKernels.xxh3(1, a, 0, b, 8, 8),
                "hashesOffset = 8",
                "count = 8");
        assertThrows(NullPointerException.class, () -> BitSetKernels.xor(null, 0, b, 0, 1));
    }

    @Test
    void failedCheckWritesNothing() {
        b.fill((byte) -1);
        assertThrows(IndexOutOfBoundsException.class, () -> BitSetKernels.or(a, 0, b, 8, 8));
        assertEquals(0, BitSetKernels.popcount(a, 0, 8));
    }

    @Test
    void readOnlyDestinationsAreRefused() {
        MemorySegment readOnly = a.asReadOnly();
        assertMessage(
                IllegalArgumentException.class, () -> BitSetKernels.andNot(readOnly, 0, b, 0, 1), "dst is read-only");
        assertMessage(
                IllegalArgumentException.class,
                () -> CounterKernels.addSaturatingUnsignedLongs(readOnly, 0, b, 0, 1),
                "dst is read-only");
        assertMessage(
                IllegalArgumentException.class,
                () -> RegisterKernels.maxUnsignedBytes(readOnly, 0, b, 0, 1),
                "dst is read-only");
        assertMessage(
                IllegalArgumentException.class, () -> HashKernels.xxh3(1, b, 0, readOnly, 0, 1), "hashes is read-only");
        assertMessage(
                IllegalArgumentException.class,
                () -> BlockedBloomKernels.add(readOnly, 0, 1, 8, new long[1], 0, 1),
                "filter is read-only");
        assertEquals(0, BitSetKernels.popcount(readOnly, 0, 8), "reading a read-only segment is fine");
    }

    @Test
    void arrayChecksNameParameterValueAndRange() {
        long[] keys = new long[10];
        assertMessage(
                IndexOutOfBoundsException.class,
                () -> HashKernels.xxh3(1, keys, 5, new long[10], 0, 6),
                "keysFrom = 5",
                "count = 6",
                "keys of length 10",
                "0 <= keysFrom <= 4");
        assertMessage(
                IndexOutOfBoundsException.class,
                () -> HashKernels.xxh3(1, keys, 0, new long[3], 0, 4),
                "count = 4",
                "hashes of length 3");
        assertMessage(IllegalArgumentException.class, () -> HashKernels.xxh3(1, keys, 0, keys, 0, -2), "count = -2");
        assertMessage(
                IllegalArgumentException.class,
                () -> RegisterKernels.histogram(a, 0, 64, new long[64]),
                "counts.length = 64",
                ">= 65");
        assertMessage(
                IllegalArgumentException.class,
                () -> RegisterKernels.summary(a, 0, 64, 51, new long[3]),
                "summary.length = 3",
                ">= 4");
        assertMessage(
                IllegalArgumentException.class,
                () -> RegisterKernels.summary(a, 0, 64, 0, new long[4]),
                "top = 0",
                "[1, 63]");
        assertMessage(
                IllegalArgumentException.class,
                () -> RegisterKernels.summary(a, 0, 64, 64, new long[4]),
                "top = 64",
                "[1, 63]");
        assertThrows(NullPointerException.class, () -> HashKernels.xxh3(1, null, 0, keys, 0, 1));
    }

    @Test
    void bloomChecksShapeAlignmentAndRanges() {
        long[] hashes = new long[4];
        boolean[] results = new boolean[4];
        assertMessage(
                IllegalArgumentException.class,
                () -> BlockedBloomKernels.add(a, 0, 0, 8, hashes, 0, 1),
                "blocks = 0",
                ">= 1");
        assertMessage(
                IllegalArgumentException.class,
                () -> BlockedBloomKernels.add(a, 0, 1, 12, hashes, 0, 1),
                "bitsPerKey = 12",
                "8 or 16");
        assertMessage(
                IndexOutOfBoundsException.class,
                () -> BlockedBloomKernels.add(a, 8, 1, 8, hashes, 0, 1),
                "offset = 8",
                "blocks = 1",
                "filter of 64 bytes");
        assertMessage(
                IndexOutOfBoundsException.class,
                () -> BlockedBloomKernels.mightContain(a, 0, 1, 8, hashes, 0, 4, results, 1),
                "resultsFrom = 1",
                "results of length 4");
        assertMessage(
                IndexOutOfBoundsException.class,
                () -> BlockedBloomKernels.addAtomic(a, 0, 1, 8, hashes, 2, 3),
                "from = 2",
                "count = 3");
        MemorySegment wide = arena.allocate(256, 64);
        assertMessage(
                IllegalArgumentException.class,
                () -> BlockedBloomKernels.addAtomic(wide, 4, 1, 8, hashes, 0, 1),
                "offset = 4",
                "8-byte aligned");
        MemorySegment bytes = MemorySegment.ofArray(new byte[128]);
        assertMessage(
                IllegalArgumentException.class,
                () -> BlockedBloomKernels.addAtomic(bytes, 0, 1, 8, hashes, 0, 1),
                "8-byte aligned");
        assertMessage(IllegalArgumentException.class, () -> BlockedBloomKernels.wordPattern(1, 8, 8), "word = 8");
        assertMessage(IllegalArgumentException.class, () -> BlockedBloomKernels.blockIndex(1, -5), "blocks = -5");
        assertEquals(1, BlockedBloomKernels.addAtomic(MemorySegment.ofArray(new long[8]), 0, 1, 8, hashes, 0, 1));
    }

    @Test
    void closedArenaIsAnIllegalState() {
        Arena other = Arena.ofConfined();
        MemorySegment gone = other.allocate(64);
        other.close();
        assertThrows(IllegalStateException.class, () -> BitSetKernels.popcount(gone, 0, 8));
    }
}
