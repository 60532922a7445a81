package io.mapsketch.interop;

import static io.mapsketch.interop.ForeignKeys.QT_SEED;
import static io.mapsketch.interop.ForeignKeys.setBit;
import static io.mapsketch.interop.ForeignKeys.written;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import com.google.common.hash.BloomFilter;
import com.google.common.hash.Funnel;
import com.google.common.hash.Funnels;
import io.mapsketch.internal.GuavaBloomIndexes;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;

/**
 * Guava's own filters, built from generated keys with each funnel and written with
 * {@code writeTo}: the image holds Guava's words, the set bits are exactly those
 * {@link GuavaBloomIndexes} computes for the keys, writing the image gives Guava's bytes back, and
 * Guava's {@code readFrom} of those bytes equals its filter.
 */
class GuavaBloomImageTest {

    private static final int EXAMPLES = 150;

    @Test
    void utf8FunnelKeys() {
        qt().withFixedSeed(QT_SEED)
                .withExamples(EXAMPLES)
                .forAll(
                        ForeignKeys.stringLists(300),
                        integers().between(1, 2_000),
                        integers().between(1, 30))
                .checkAssert((keys, expected, percent) ->
                        check(Funnels.stringFunnel(StandardCharsets.UTF_8), keys, expected, percent, (key, halves) -> {
                            byte[] utf8 = key.getBytes(StandardCharsets.UTF_8);
                            GuavaBloomIndexes.hashBytes(MemorySegment.ofArray(utf8), 0, utf8.length, halves);
                        }));
    }

    @Test
    void longFunnelKeys() {
        qt().withFixedSeed(QT_SEED + 1)
                .withExamples(EXAMPLES)
                .forAll(
                        ForeignKeys.longLists(300),
                        integers().between(1, 2_000),
                        integers().between(1, 30))
                .checkAssert((keys, expected, percent) ->
                        check(Funnels.longFunnel(), keys, expected, percent, GuavaBloomIndexes::hashLong));
    }

    @Test
    void byteArrayFunnelKeys() {
        qt().withFixedSeed(QT_SEED + 2)
                .withExamples(EXAMPLES)
                .forAll(
                        ForeignKeys.byteArrayLists(300),
                        integers().between(1, 2_000),
                        integers().between(1, 30))
                .checkAssert((keys, expected, percent) -> check(
                        Funnels.byteArrayFunnel(),
                        keys,
                        expected,
                        percent,
                        (key, halves) ->
                                GuavaBloomIndexes.hashBytes(MemorySegment.ofArray(key), 0, key.length, halves)));
    }

    @Test
    void oneHashFunctionAndOneWordRoundTrip() throws ForeignSketchException {
        GuavaBloomImage image = new GuavaBloomImage(1, ImmutableLongArray.copyOf(0x8000_0000_0000_0001L));
        byte[] bytes = image.toBytes();
        assertArrayEquals(new byte[] {1, 1, 0, 0, 0, 1, (byte) 0x80, 0, 0, 0, 0, 0, 0, 1}, bytes);
        assertEquals(image, GuavaBloomImage.parse(bytes));
        assertEquals(64, image.bitSize());
    }

    private static <T> void check(
            Funnel<? super T> funnel, List<T> keys, int expected, int percent, BiConsumer<T, long[]> hash) {
        BloomFilter<T> guava = BloomFilter.create(funnel, expected, percent / 100.0);
        keys.forEach(guava::put);
        byte[] bytes = written(guava::writeTo);
        GuavaBloomImage image;
        try {
            image = GuavaBloomImage.parse(bytes);
        } catch (ForeignSketchException e) {
            throw new AssertionError(e);
        }

        long[] words = new long[image.words().length()];
        long[] halves = new long[2];
        for (T key : keys) {
            hash.accept(key, halves);
            for (int probe = 0; probe < image.hashFunctions(); probe++) {
                setBit(words, GuavaBloomIndexes.bitIndex(halves[0], halves[1], probe, image.bitSize()));
            }
        }
        assertEquals(ImmutableLongArray.copyOf(words), image.words());

        byte[] rewritten = image.toBytes();
        assertArrayEquals(bytes, rewritten);
        try {
            assertEquals(guava, BloomFilter.readFrom(new ByteArrayInputStream(rewritten), funnel));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
