package io.mapsketch;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import io.mapsketch.cardinality.HyperLogLog;
import io.mapsketch.cardinality.HyperLogLogTable;
import io.mapsketch.frequency.CountMinSketch;
import io.mapsketch.frequency.CountMinTable;
import io.mapsketch.frequency.FrequencySketch;
import io.mapsketch.frequency.TopK;
import io.mapsketch.membership.BlockedBloomFilter;
import io.mapsketch.membership.BloomFilter;
import io.mapsketch.membership.BloomTable;
import io.mapsketch.membership.CountingBloomFilter;
import io.mapsketch.membership.CuckooFilter;
import io.mapsketch.membership.MembershipFilter;
import io.mapsketch.memory.LiveCounters;
import io.mapsketch.memory.SketchFileLayout;
import io.mapsketch.similarity.MinHash;
import io.mapsketch.similarity.SimHash;
import io.mapsketch.testing.HeaderSeal;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;

/**
 * Hostile files: valid sketch files of every kind, mutated one field at a time (header fields and
 * parameters with their checksum rewritten so that the mutation itself is judged, live counters,
 * words of the summary line, words of the payload checksum, payload words, the file's length), then
 * opened read-only or as a shared writer. Each open either succeeds, and the sketch then answers
 * queries, takes an add and verifies its payload without error, or throws a
 * {@link SketchFileException} naming the file. Anything else (an index or argument error, an
 * allocation failure, an error from the JVM) fails the test. The mutations are drawn by a seeded
 * QuickTheories generator; the ones that once exposed a fault are kept in
 * {@code hostile-corpus.csv} and replayed on every run.
 */
class HostileFileTest {

    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    /** Where a mutation writes: an int or long of the header, a live counter, the payload, or the length. */
    enum Target {
        VERSION(SketchFileLayout.VERSION_OFFSET, 4, true),
        HEADER_LENGTH(SketchFileLayout.HEADER_LENGTH_OFFSET, 4, true),
        KIND(SketchFileLayout.KIND_OFFSET, 4, true),
        HASH_SCHEME(SketchFileLayout.HASH_SCHEME_OFFSET, 4, true),
        SEED(SketchFileLayout.HASH_SEED_OFFSET, 8, true),
        PAYLOAD_OFFSET(SketchFileLayout.PAYLOAD_OFFSET_OFFSET, 8, true),
        PAYLOAD_LENGTH(SketchFileLayout.PAYLOAD_LENGTH_OFFSET, 8, true),
        PARAMETER(SketchFileLayout.PARAMETERS_OFFSET, 8, true),
        ITEMS(SketchFileLayout.ITEMS_OFFSET, 8, false),
        WEIGHT(SketchFileLayout.WEIGHT_OFFSET, 8, false),
        WRITERS(SketchFileLayout.WRITERS_OFFSET, 4, false),
        FLAGS(SketchFileLayout.FLAGS_OFFSET, 4, false),
        SUMMARY_WORD(SketchFileLayout.SUMMARY_OFFSET, 8, false),
        CHECKSUM_WORD(SketchFileLayout.CHECKSUM_OFFSET, 8, false),
        PAYLOAD_WORD(SketchFileLayout.HEADER_LENGTH, 8, false),
        FILE_LENGTH(0, 0, false);

        final int offset;
        final int width;
        final boolean sealed;

        Target(int offset, int width, boolean sealed) {
            this.offset = offset;
            this.width = width;
            this.sealed = sealed;
        }
    }

    /** A sketch kind under test: how to make a small valid file of it, open it, and use it. */
    record Kind(String name, Function<Path, Sketch> creator, Opener opener, Use use) {}

    @FunctionalInterface
    interface Opener {
        Sketch open(Path file, OpenMode mode) throws IOException;
    }

    @FunctionalInterface
    interface Use {
        void exercise(Sketch sketch);
    }

    private static final Use FILTER = sketch -> {
        MembershipFilter filter = (MembershipFilter) sketch;
        filter.mightContain(42L);
        filter.mightContainAll(new long[] {1, 2, 3}, new boolean[3]);
        filter.expectedFalsePositiveRate();
        if (sketch.mode() != OpenMode.READ_ONLY) {
            filter.add("x");
            filter.addAll(new long[] {4, 5, 6});
        }
    };

    static final List<Kind> KINDS = List.of(
            new Kind(
                    "classic",
                    file -> create(
                            file, BloomFilter.builder().expectedItems(500).falsePositiveRate(0.01)),
                    MembershipFilter::open,
                    FILTER),
            new Kind(
                    "blocked",
                    file -> create(
                            file,
                            BlockedBloomFilter.builder().expectedItems(500).falsePositiveRate(0.01)),
                    MembershipFilter::open,
                    FILTER),
            new Kind(
                    "counting",
                    file -> create(
                            file,
                            CountingBloomFilter.builder().expectedItems(500).falsePositiveRate(0.01)),
                    MembershipFilter::open,
                    FILTER),
            new Kind(
                    "countmin",
                    file -> create(file, CountMinSketch.builder().epsilon(0.05).delta(0.05)),
                    CountMinSketch::open,
                    sketch -> {
                        CountMinSketch cms = (CountMinSketch) sketch;
                        cms.estimate(42L);
                        cms.errorBound();
                        if (sketch.mode() != OpenMode.READ_ONLY && hasRoom(cms)) {
                            cms.add("x", 3);
                        }
                    }),
            new Kind(
                    "topk",
                    file -> create(file, TopK.builder().k(4).epsilon(0.05).delta(0.05)),
                    TopK::open,
                    sketch -> {
                        TopK top = (TopK) sketch;
                        top.top();
                        top.estimate(42L);
                        if (sketch.mode() != OpenMode.READ_ONLY && hasRoom(top)) {
                            for (int i = 0; i < 10; i++) {
                                top.add("key " + i, i + 1);
                            }
                            top.top();
                        }
                    }),
            new Kind(
                    "cuckoo",
                    file -> create(
                            file, CuckooFilter.builder().expectedItems(500).falsePositiveRate(0.01)),
                    MembershipFilter::open,
                    FILTER),
            new Kind(
                    "minhash",
                    file -> create(file, MinHash.builder().rows(3).signatureLength(16)),
                    MinHash::open,
                    sketch -> {
                        MinHash minHash = (MinHash) sketch;
                        minHash.jaccard(0, 1);
                        minHash.mostSimilar(minHash.signature(0), 2);
                        if (sketch.mode() != OpenMode.READ_ONLY) {
                            minHash.add(2, "x");
                        }
                    }),
            new Kind("simhash", file -> create(file, SimHash.builder().capacity(64)), SimHash::open, sketch -> {
                SimHash table = (SimHash) sketch;
                table.within(42L, 3);
                table.size();
                if (sketch.mode() != OpenMode.READ_ONLY && table.size() < table.capacity()) {
                    table.append(7L);
                }
            }),
            new Kind("hll", file -> create(file, HyperLogLog.builder().precision(6)), HyperLogLog::open, sketch -> {
                HyperLogLog hll = (HyperLogLog) sketch;
                hll.estimate();
                if (sketch.mode() != OpenMode.READ_ONLY) {
                    hll.add(42L);
                    hll.estimate();
                }
            }),
            new Kind(
                    "bloomtable",
                    file -> create(
                            file,
                            BloomTable.builder()
                                    .capacity(8)
                                    .expectedItemsPerKey(20)
                                    .falsePositiveRate(0.01)),
                    BloomTable::open,
                    sketch -> {
                        BloomTable table = (BloomTable) sketch;
                        table.mightContain("a", 10L);
                        table.keys();
                        table.filterWords("b");
                        if (sketch.mode() != OpenMode.READ_ONLY) {
                            try {
                                table.add("a", 42L);
                                table.add("new key", 7L);
                            } catch (TableFullException full) {
                                // A file may say its capacity is reached: the refusal is the contract.
                            }
                            table.mightContain("a", 42L);
                        }
                    }),
            new Kind(
                    "cmstable",
                    file -> create(file, CountMinTable.builder().capacity(8).dimensions(10, 3)),
                    CountMinTable::open,
                    sketch -> {
                        CountMinTable table = (CountMinTable) sketch;
                        table.estimate("a", 10L);
                        table.keys();
                        table.counterTable("b");
                        table.totalWeight("a");
                        if (sketch.mode() != OpenMode.READ_ONLY) {
                            try {
                                table.add("a", 42L, 3);
                                table.add("new key", 7L, 1);
                            } catch (TableFullException full) {
                                // A file may say its capacity is reached: the refusal is the contract.
                            } catch (IllegalArgumentException refused) {
                                // A file may say its total weight is at the limit: the refusal is the contract.
                            }
                            table.estimate("a", 42L);
                        }
                    }),
            new Kind(
                    "hlltable",
                    file -> create(
                            file,
                            HyperLogLogTable.builder().precision(8).capacity(8).bytesPerKey(256)),
                    HyperLogLogTable::open,
                    sketch -> {
                        HyperLogLogTable table = (HyperLogLogTable) sketch;
                        table.estimate("a");
                        table.estimate("dense");
                        table.estimateUnion(List.of("a", "b", "dense"));
                        table.registers("b");
                        table.keys();
                        table.keyCounts();
                        if (sketch.mode() != OpenMode.READ_ONLY) {
                            try {
                                table.add("a", 42L);
                                table.add("dense", 43L);
                                table.add("new key", 7L);
                            } catch (TableFullException full) {
                                // A file may say its capacity or heap is reached: the refusal is the contract.
                            }
                            table.estimate("a");
                        }
                    }));

    private static final long[] INTERESTING = {
        0,
        1,
        -1,
        2,
        3,
        4,
        7,
        8,
        15,
        16,
        63,
        64,
        65,
        4095,
        4096,
        4097,
        Integer.MAX_VALUE,
        1L << 31,
        1L << 32,
        (1L << 32) + 1,
        1L << 40,
        1L << 62,
        Long.MAX_VALUE,
        Long.MIN_VALUE,
        Double.doubleToLongBits(0.0),
        Double.doubleToLongBits(1.0),
        Double.doubleToLongBits(0.5),
        Double.doubleToLongBits(1e-300),
        Double.doubleToLongBits(-0.5),
        Double.doubleToLongBits(Double.NaN),
        Double.doubleToLongBits(Double.POSITIVE_INFINITY)
    };

    @TempDir
    Path dir;

    /** A file may say N is at its largest; adds are then refused by contract, not tried here. */
    private static boolean hasRoom(FrequencySketch sketch) {
        return sketch.totalWeight() < LiveCounters.LIMIT - 1_000;
    }

    private static Sketch create(Path file, SketchBuilder<?, ?> builder) {
        try {
            Sketch sketch = builder.seed(9).create(file, OpenMode.EXCLUSIVE);
            if (sketch instanceof MembershipFilter filter) {
                filter.addAll(new long[] {10, 20, 30});
            } else if (sketch instanceof FrequencySketch frequency) {
                frequency.addAll(new long[] {10, 20, 30, 10});
            } else if (sketch instanceof HyperLogLog hll) {
                hll.addAll(new long[] {10, 20, 30});
            } else if (sketch instanceof MinHash minHash) {
                minHash.addAll(0, new long[] {10, 20, 30});
            } else if (sketch instanceof SimHash table) {
                table.append(123L);
            } else if (sketch instanceof CountMinTable table) {
                table.add("a", 10L, 2);
                table.add("b", 20L, 1);
                table.add("a", 30L, 5);
            } else if (sketch instanceof BloomTable table) {
                table.add("a", 10L);
                table.add("b", 20L);
                table.add("a", 30L);
            } else if (sketch instanceof HyperLogLogTable table) {
                table.add("a", 10L);
                table.add("b", 20L);
                table.add("a", 30L);
                for (long item = 0; item < 200; item++) {
                    table.add("dense", item);
                }
            }
            return sketch;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void mutatedFilesOpenCleanlyOrAreRefusedWithTheTypedException() {
        qt().withFixedSeed(8_128L)
                .withExamples(3_000)
                .forAll(
                        integers().between(0, KINDS.size() - 1), integers().between(0, Target.values().length - 1),
                        integers().between(0, 1_000_000), longs().all())
                .checkAssert((kind, target, position, value) -> {
                    long chosen = Math.floorMod(value, 3) == 0
                            ? value
                            : INTERESTING[Math.floorMod(value, INTERESTING.length)];
                    check(KINDS.get(kind), Target.values()[target], position / 2, chosen, position % 2 == 1);
                });
    }

    /**
     * The tables' payloads hold their own structure (an index, records, chains, filters, the free heap past
     * the cursor), which the draw above reaches only a few times per run: each table kind's payload words
     * are mutated {@code 400} times more.
     */
    @Test
    void mutatedTablePayloadsOpenCleanlyOrAreRefusedWithTheTypedException() {
        List<Kind> tables =
                KINDS.stream().filter(k -> k.name().endsWith("table")).toList();
        qt().withFixedSeed(23L)
                .withExamples(800)
                .forAll(integers().between(0, tables.size() - 1), integers().between(0, 1_000_000), longs().all())
                .checkAssert((kind, position, value) -> {
                    long chosen = Math.floorMod(value, 3) == 0
                            ? value
                            : INTERESTING[Math.floorMod(value, INTERESTING.length)];
                    check(tables.get(kind), Target.PAYLOAD_WORD, position / 2, chosen, position % 2 == 1);
                });
    }

    @ParameterizedTest(name = "{0} {1}[{2}] = {3}, shared {4}")
    @CsvFileSource(resources = "/hostile-corpus.csv", numLinesToSkip = 1)
    void corpusOfOnceHarmfulMutations(String kind, Target target, int position, long value, boolean shared) {
        check(
                KINDS.stream().filter(k -> k.name().equals(kind)).findFirst().orElseThrow(),
                target,
                position,
                value,
                shared);
    }

    /**
     * Mutations that a writer would act on wrongly if the open accepted them (a dense block over another
     * piece of the heap, so that one key's registers would be written over another's bytes), kept in
     * {@code hostile-refusals.csv}: each open must be refused, naming the file and the fault.
     */
    @ParameterizedTest(name = "{0} {1}[{2}] = {3}, shared {4}: {5}")
    @CsvFileSource(resources = "/hostile-refusals.csv", numLinesToSkip = 1)
    void mutationsAWriterWouldMisuseAreRefused(
            String kind, Target target, int position, long value, boolean shared, String fault) {
        Kind named =
                KINDS.stream().filter(k -> k.name().equals(kind)).findFirst().orElseThrow();
        Path file = mutated(named, target, position, value);
        OpenMode mode = shared ? OpenMode.SHARED : OpenMode.READ_ONLY;
        CorruptSketchFileException refused = assertThrows(
                CorruptSketchFileException.class, () -> named.opener().open(file, mode));
        assertTrue(
                refused.getMessage().contains(file.getFileName().toString())
                        && refused.getMessage().contains(fault),
                refused.getMessage());
    }

    /** Writes a fresh valid file of this kind and applies the mutation. */
    private Path mutated(Kind kind, Target target, int position, long value) {
        Path file = dir.resolve(kind.name() + "-" + System.nanoTime() + ".sketch");
        try {
            try (Sketch valid = kind.creator().apply(file)) {
                assertTrue(valid.itemsAdded() > 0);
            }
            byte[] bytes = mutate(Files.readAllBytes(file), target, position, value);
            Files.write(file, bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return file;
    }

    /** Writes a fresh valid file of this kind, applies the mutation, and judges the open. */
    private void check(Kind kind, Target target, int position, long value, boolean shared) {
        String mutation = kind.name() + " " + target + "[" + position + "] = " + value + " (shared " + shared + ")";
        Path file = mutated(kind, target, position, value);
        OpenMode mode = shared ? OpenMode.SHARED : OpenMode.READ_ONLY;
        try (Sketch sketch = kind.opener().open(file, mode)) {
            kind.use().exercise(sketch);
            sketch.verify();
        } catch (SketchFileException refused) {
            assertTrue(
                    refused.getMessage().contains(file.getFileName().toString()),
                    mutation + ": the refusal does not name the file: " + refused.getMessage());
        } catch (Throwable wrong) {
            fail(mutation + ": neither opened cleanly nor refused with a SketchFileException", wrong);
        }
    }

    static byte[] mutate(byte[] bytes, Target target, int position, long value) {
        if (target == Target.FILE_LENGTH) {
            int length = Math.floorMod(value, bytes.length + SketchFileLayout.HEADER_LENGTH);
            return Arrays.copyOf(bytes, length);
        }
        MemorySegment file = MemorySegment.ofArray(bytes);
        long offset = target.offset;
        if (target == Target.PARAMETER) {
            offset += 8L * (position % SketchFileLayout.PARAMETER_COUNT);
        } else if (target == Target.SUMMARY_WORD) {
            offset += 8L * (position % (SketchFileLayout.CACHE_LINE / 8));
        } else if (target == Target.CHECKSUM_WORD) {
            offset += 8L * (position % ((SketchFileLayout.HEADER_LENGTH - SketchFileLayout.CHECKSUM_OFFSET) / 8));
        } else if (target == Target.PAYLOAD_WORD) {
            offset += 8L * (position % ((bytes.length - SketchFileLayout.HEADER_LENGTH) / 8));
        }
        if (target.width == 8) {
            file.set(LONG, offset, value);
        } else {
            file.set(INT, offset, (int) value);
        }
        if (target.sealed) {
            HeaderSeal.rewriteChecksum(bytes);
        }
        return bytes;
    }
}
