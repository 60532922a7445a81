package io.mapsketch.kernels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.longs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/**
 * Memory and inputs for the twin tests: regions of an anonymous and of a file-mapped segment,
 * seeded fills, and the QuickTheories generators of slices and of hashes.
 */
final class TestMemory {

    /** Longest slice the property tests generate, in elements. */
    static final int MAX_LENGTH = 4200;
    /** Bytes per region: room for {@link #MAX_LENGTH} 64-bit words after any generated offset. */
    static final int REGION_BYTES = 64 * 1024;
    /** Fixed seed of every QuickTheories run. */
    static final long QT_SEED = 0x6B65726E656C73L;
    /** Examples per property. */
    static final int EXAMPLES = 300;

    private static final int REGIONS = 4;
    private static final ValueLayout.OfLong WORD = ValueLayout.JAVA_LONG_UNALIGNED;

    /** Where a region lives. */
    enum Memory {
        ANONYMOUS,
        MAPPED
    }

    /** What a region is filled with. */
    enum Fill {
        RANDOM,
        ZEROS,
        ONES,
        /** About one bit in eight set. */
        SPARSE,
        /** Every byte at least 0xC0: counters close to saturation. */
        HIGH,
        /** HyperLogLog-like register values, mostly 0 to 30, a few above 64. */
        REGISTERS
    }

    /** One generated slice pair: lengths in elements, offsets in bytes. */
    record Case(int length, int dstOffset, int srcOffset, Fill dstFill, Fill srcFill, Memory memory, long seed) {}

    private static final MemorySegment ANONYMOUS = Arena.ofAuto().allocate((long) REGION_BYTES * REGIONS, 64);
    private static final MemorySegment MAPPED = mapTemporaryFile((long) REGION_BYTES * REGIONS);

    private TestMemory() {}

    /** The implementation compared with the scalar reference: the Vector API one if present. */
    static KernelSet twin() {
        return KernelProvider.vector().orElse(KernelProvider.active());
    }

    /** Region {@code index} (0 to 3) of the given memory, {@value #REGION_BYTES} bytes. */
    static MemorySegment region(Memory memory, int index) {
        MemorySegment base = memory == Memory.ANONYMOUS ? ANONYMOUS : MAPPED;
        return base.asSlice((long) index * REGION_BYTES, REGION_BYTES);
    }

    /** Fills a whole segment (a multiple of 8 bytes long) from a seeded random source. */
    static void fill(MemorySegment segment, Fill fill, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        for (long i = 0; i < segment.byteSize(); i += Long.BYTES) {
            segment.set(WORD, i, word(fill, random));
        }
    }

    private static long word(Fill fill, SplittableRandom random) {
        return switch (fill) {
            case RANDOM -> random.nextLong();
            case ZEROS -> 0L;
            case ONES -> -1L;
            case SPARSE -> random.nextLong() & random.nextLong() & random.nextLong();
            case HIGH -> random.nextLong() | 0xC0C0_C0C0_C0C0_C0C0L;
            case REGISTERS -> {
                long word = 0;
                for (int b = 0; b < Long.BYTES; b++) {
                    word |= (long) register(random) << (8 * b);
                }
                yield word;
            }
        };
    }

    private static int register(SplittableRandom random) {
        int roll = random.nextInt(1000);
        if (roll < 3) {
            return 65 + random.nextInt(191);
        }
        if (roll < 50) {
            return random.nextInt(65);
        }
        return Math.min(64, 8 + Long.numberOfLeadingZeros(random.nextLong() | 1) + random.nextInt(4));
    }

    /** Generated arrays of {@code minSize} to {@code maxSize} 64-bit words: keys, or the hashes of keys. */
    static Gen<long[]> words(int minSize, int maxSize) {
        return lists().of(longs().all())
                .ofSizeBetween(minSize, maxSize)
                .map(list -> list.stream().mapToLong(Long::longValue).toArray())
                .describedAs(words -> words.length + " words " + Arrays.toString(words));
    }

    /**
     * Generated slices: lengths 0 to {@value #MAX_LENGTH}, byte offsets 0 to 127 or 8k not 64k. What the
     * slices hold is drawn from the case's seed ({@link #fill}): each case fills four regions of
     * {@value #REGION_BYTES} bytes, and the lengths, offsets and kinds of fill that shrink are generated.
     */
    static Gen<Case> cases() {
        Gen<Integer> lengths = Generate.range(0, MAX_LENGTH);
        Gen<Integer> offsets = Generate.range(0, 255).map(r -> r < 128 ? r : 8 * (1 + r % 7) + 64 * (r & 1));
        Gen<Fill> fills = Generate.enumValues(Fill.class);
        return lengths.zip(
                        offsets,
                        offsets,
                        fills,
                        fills,
                        (n, dst, src, dstFill, srcFill) -> new Case(n, dst, src, dstFill, srcFill, Memory.ANONYMOUS, 0))
                .zip(
                        Generate.enumValues(Memory.class),
                        Generate.longRange(Long.MIN_VALUE, Long.MAX_VALUE),
                        (c, memory, seed) -> new Case(
                                c.length(), c.dstOffset(), c.srcOffset(), c.dstFill(), c.srcFill(), memory, seed));
    }

    /**
     * Deterministic cases for every tail: each length 0 to 200 (every remainder modulo any vector up
     * to 64 bytes, in elements of any size) and lengths around the 31-vector histogram chunk.
     */
    static Case[] everyTail() {
        int[] extra = {1983, 1984, 1985, 3967, 3968, 3969, MAX_LENGTH};
        Case[] cases = new Case[201 + extra.length];
        Fill[] fills = Fill.values();
        for (int i = 0; i < cases.length; i++) {
            int length = i <= 200 ? i : extra[i - 201];
            cases[i] = new Case(
                    length,
                    i % 128,
                    (i * 8) % 128,
                    fills[i % fills.length],
                    fills[(i / 2) % fills.length],
                    Memory.values()[i % 2],
                    i);
        }
        return cases;
    }

    /** A merge kernel of one implementation. */
    @FunctionalInterface
    interface Merge {
        void apply(KernelSet kernels, MemorySegment dst, long dstOffset, MemorySegment src, long srcOffset, long count);
    }

    /** A read-only kernel of one implementation that returns a number. */
    @FunctionalInterface
    interface Reduce {
        long apply(KernelSet kernels, MemorySegment a, long aOffset, MemorySegment b, long bOffset, long count);
    }

    /**
     * Runs a merge with the scalar reference and with {@link #twin()} on equal copies of the
     * destination, and asserts equal results and no write outside the destination slice.
     */
    static void assertMergeTwins(Case c, int elementBytes, Merge merge) {
        MemorySegment src = region(c.memory(), 0);
        MemorySegment expected = region(c.memory(), 1);
        MemorySegment actual = region(c.memory(), 2);
        MemorySegment pristine = region(c.memory(), 3);
        fill(src, c.srcFill(), c.seed());
        fill(pristine, c.dstFill(), ~c.seed());
        expected.copyFrom(pristine);
        actual.copyFrom(pristine);
        merge.apply(KernelSet.SCALAR, expected, c.dstOffset(), src, c.srcOffset(), c.length());
        merge.apply(twin(), actual, c.dstOffset(), src, c.srcOffset(), c.length());
        assertEquals(
                -1,
                expected.mismatch(actual),
                () -> "twins differ at byte " + expected.mismatch(actual) + " of the destination for " + c);
        long end = c.dstOffset() + (long) c.length() * elementBytes;
        assertEquals(
                -1,
                expected.asSlice(0, c.dstOffset()).mismatch(pristine.asSlice(0, c.dstOffset())),
                () -> "write before the slice for " + c);
        assertEquals(-1, expected.asSlice(end).mismatch(pristine.asSlice(end)), () -> "write after the slice for " + c);
    }

    /** Runs a read-only kernel with the scalar reference and with {@link #twin()}; asserts equal results. */
    static void assertReduceTwins(Case c, Reduce reduce) {
        MemorySegment a = region(c.memory(), 0);
        MemorySegment b = region(c.memory(), 1);
        fill(a, c.srcFill(), c.seed());
        fill(b, c.dstFill(), ~c.seed());
        long expected = reduce.apply(KernelSet.SCALAR, a, c.srcOffset(), b, c.dstOffset(), c.length());
        long actual = reduce.apply(twin(), a, c.srcOffset(), b, c.dstOffset(), c.length());
        assertEquals(expected, actual, () -> "twins differ for " + c);
    }

    private static MemorySegment mapTemporaryFile(long size) {
        try {
            Path file = Files.createTempFile("kernels", ".map");
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                return channel.map(FileChannel.MapMode.READ_WRITE, 0, size, Arena.ofAuto());
            } finally {
                Files.delete(file);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
