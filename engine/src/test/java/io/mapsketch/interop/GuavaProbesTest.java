package io.mapsketch.interop;

import static io.mapsketch.interop.ForeignKeys.QT_SEED;
import static io.mapsketch.interop.ForeignKeys.written;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import com.google.common.hash.BloomFilter;
import com.google.common.hash.Funnels;
import io.mapsketch.OpenMode;
import io.mapsketch.membership.BloomProbing;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * A classic mapsketch filter of Guava's scheme, made empty at the size and probe count of a Guava
 * filter and fed the same generated keys in every key form, one at a time and in batches: its bits are
 * Guava's bits, and it answers Guava's {@code mightContain} for the keys added and for others.
 */
class GuavaProbesTest {

    private static final int EXAMPLES = 60;

    @Test
    void stringsInEveryBytesFormUnderTheUtf8Funnel() {
        qt().withFixedSeed(QT_SEED + 100)
                .withExamples(EXAMPLES)
                .forAll(
                        ForeignKeys.stringLists(200),
                        ForeignKeys.stringLists(200),
                        integers().between(1, 2_000))
                .checkAssert((keys, others, expected) -> {
                    BloomFilter<CharSequence> guava =
                            BloomFilter.create(Funnels.stringFunnel(StandardCharsets.UTF_8), expected, 0.03);
                    keys.forEach(guava::put);
                    for (int form = 0; form < 3; form++) {
                        int chosen = form;
                        check(guava, BloomProbing.GUAVA_UTF8, keys, others, (filter, key) -> {
                            byte[] utf8 = key.getBytes(StandardCharsets.UTF_8);
                            switch (chosen) {
                                case 0 -> filter.add(key);
                                case 1 -> filter.add(utf8, 0, utf8.length);
                                default -> filter.add(MemorySegment.ofArray(utf8), 0, utf8.length);
                            }
                        });
                    }
                });
    }

    @Test
    void longKeysAsDecimalStringsUnderTheUtf8Funnel() {
        qt().withFixedSeed(QT_SEED + 101)
                .withExamples(EXAMPLES)
                .forAll(
                        ForeignKeys.longLists(200),
                        ForeignKeys.longLists(200),
                        integers().between(1, 2_000))
                .checkAssert((keys, others, expected) -> {
                    BloomFilter<CharSequence> guava =
                            BloomFilter.create(Funnels.stringFunnel(StandardCharsets.UTF_8), expected, 0.03);
                    keys.forEach(key -> guava.put(String.valueOf(key)));
                    check(
                            guava,
                            BloomProbing.GUAVA_UTF8,
                            keys,
                            others,
                            (filter, key) -> filter.add(String.valueOf(key)),
                            String::valueOf);
                });
    }

    @Test
    void longKeysOneByOneAndInBatchesUnderTheLongFunnel() {
        qt().withFixedSeed(QT_SEED + 102)
                .withExamples(EXAMPLES)
                .forAll(
                        ForeignKeys.longLists(300),
                        ForeignKeys.longLists(300),
                        integers().between(1, 2_000))
                .checkAssert((keys, others, expected) -> batches(keys, others, expected));
    }

    private static void batches(List<Long> keys, List<Long> others, int expected) {
        {
            {
                BloomFilter<Long> guava = BloomFilter.create(Funnels.longFunnel(), expected, 0.02);
                keys.forEach(guava::put);
                check(guava, BloomProbing.GUAVA_LONG, keys, others, (filter, key) -> filter.add(key));
                long[] array = keys.stream().mapToLong(Long::longValue).toArray();
                try (io.mapsketch.membership.BloomFilter batch = empty(guava, BloomProbing.GUAVA_LONG);
                        Arena arena = Arena.ofConfined()) {
                    batch.addAll(array);
                    assertArrayEquals(wordsOf(guava), batch.words());
                    MemorySegment segment = arena.allocate(ValueLayout.JAVA_LONG, Math.max(1, array.length));
                    MemorySegment.copy(array, 0, segment, ValueLayout.JAVA_LONG_UNALIGNED, 0, array.length);
                    try (io.mapsketch.membership.BloomFilter fromSegment = empty(guava, BloomProbing.GUAVA_LONG)) {
                        fromSegment.addAll(segment, 0, array.length);
                        assertArrayEquals(wordsOf(guava), fromSegment.words());
                    }
                    long[] probes = others.stream().mapToLong(Long::longValue).toArray();
                    boolean[] answers = new boolean[probes.length];
                    batch.mightContainAll(probes, answers);
                    for (int i = 0; i < probes.length; i++) {
                        assertEquals(guava.mightContain(probes[i]), answers[i], "key " + probes[i]);
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
    }

    @Test
    void byteArraysUnderEitherFunnel() {
        qt().withFixedSeed(QT_SEED + 103)
                .withExamples(EXAMPLES)
                .forAll(
                        ForeignKeys.byteArrayLists(200),
                        ForeignKeys.byteArrayLists(200),
                        integers().between(1, 2_000))
                .checkAssert((keys, others, expected) -> {
                    BloomFilter<byte[]> guava = BloomFilter.create(Funnels.byteArrayFunnel(), expected, 0.05);
                    keys.forEach(guava::put);
                    for (BloomProbing probing : List.of(BloomProbing.GUAVA_UTF8, BloomProbing.GUAVA_LONG)) {
                        check(guava, probing, keys, others, (filter, key) -> filter.add(key, 0, key.length));
                    }
                });
    }

    /** Adds {@code keys} to an empty filter the size of {@code guava}'s and compares bits and answers. */
    private static <T> void check(
            BloomFilter<? super T> guava,
            BloomProbing probing,
            List<T> keys,
            List<T> others,
            BiConsumer<io.mapsketch.membership.BloomFilter, T> add) {
        check(guava, probing, keys, others, add, key -> key);
    }

    /**
     * As above, Guava being asked about {@code asGuavaKey} of each key; a {@code long} key is looked up
     * here as a {@code long}.
     */
    private static <T, G> void check(
            BloomFilter<? super G> guava,
            BloomProbing probing,
            List<T> keys,
            List<T> others,
            BiConsumer<io.mapsketch.membership.BloomFilter, T> add,
            Function<T, G> asGuavaKey) {
        try (io.mapsketch.membership.BloomFilter ours = empty(guava, probing)) {
            keys.forEach(key -> add.accept(ours, key));
            assertArrayEquals(wordsOf(guava), ours.words());
            assertEquals(keys.size(), ours.itemsAdded());
            for (T key : keys) {
                assertTrue(contains(ours, key), "added key " + key);
            }
            for (T key : others) {
                assertEquals(guava.mightContain(asGuavaKey.apply(key)), contains(ours, key), "key " + key);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean contains(io.mapsketch.membership.BloomFilter filter, Object key) {
        return switch (key) {
            case String string -> filter.mightContain(string);
            case byte[] bytes -> filter.mightContain(bytes, 0, bytes.length);
            case Long value -> filter.mightContain((long) value);
            default -> throw new AssertionError(key);
        };
    }

    /** An empty filter of {@code guava}'s words and probes, with {@code probing}. */
    static io.mapsketch.membership.BloomFilter empty(BloomFilter<?> guava, BloomProbing probing) {
        GuavaBloomImage image = image(guava);
        return io.mapsketch.membership.BloomFilter.builder()
                .foreignImage(
                        probing, image.hashFunctions(), new long[image.words().length()])
                .createAnonymous(OpenMode.EXCLUSIVE);
    }

    static long[] wordsOf(BloomFilter<?> guava) {
        return image(guava).words().toArray();
    }

    static GuavaBloomImage image(BloomFilter<?> guava) {
        try {
            return GuavaBloomImage.parse(written(guava::writeTo));
        } catch (ForeignSketchException e) {
            throw new AssertionError(e);
        }
    }
}
