package io.mapsketch.interop;

import static io.mapsketch.interop.ForeignKeys.QT_SEED;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Bytes that are not what the origin writes: truncated, longer, of another version or strategy,
 * with sizes that are negative, zero or far beyond the bytes there are, or values the origin cannot
 * write. Each is a {@link ForeignSketchException} naming the source, the format and the offset;
 * none allocates what a forged length asks for.
 */
class HostileForeignBytesTest {

    /** A parser under test, its format's name, and a small valid image's bytes. */
    private record Format(String name, Parser parser, byte[] valid) {}

    private interface Parser {
        Object parse(MemorySegment bytes, Path source) throws ForeignSketchException;
    }

    private static final List<Format> FORMATS = List.of(
            new Format(
                    GuavaBloomImage.FORMAT,
                    GuavaBloomImage::parse,
                    new GuavaBloomImage(3, ImmutableLongArray.copyOf(5, -1)).toBytes()),
            new Format(
                    SparkBloomImage.FORMAT,
                    SparkBloomImage::parse,
                    new SparkBloomImage(1, 2, 0, ImmutableLongArray.copyOf(7)).toBytes()),
            new Format(
                    SparkBloomImage.FORMAT,
                    SparkBloomImage::parse,
                    new SparkBloomImage(2, 4, -9, ImmutableLongArray.copyOf(1, 2, 3)).toBytes()),
            new Format(
                    SparkCountMinImage.FORMAT,
                    SparkCountMinImage::parse,
                    new SparkCountMinImage(
                                    4,
                                    2,
                                    3,
                                    ImmutableLongArray.copyOf(11, 12),
                                    ImmutableLongArray.copyOf(4, 0, 0, 1, 2, 1))
                            .toBytes()));

    @Test
    void everyTruncationIsRefusedAtOrBeforeItsEnd() {
        for (Format format : FORMATS) {
            for (int length = 0; length < format.valid().length; length++) {
                byte[] prefix = Arrays.copyOf(format.valid(), length);
                ForeignSketchException e = refused(format, prefix);
                assertTrue(e.offset() <= length, e.getMessage());
            }
        }
    }

    @Test
    void aByteAfterTheImageIsRefusedWhereItStarts() {
        for (Format format : FORMATS) {
            byte[] longer = Arrays.copyOf(format.valid(), format.valid().length + 1);
            assertEquals(format.valid().length, refused(format, longer).offset());
        }
    }

    @Test
    void theFileAndFormatAreNamed() {
        Path file = Path.of("filters", "guava.bin");
        ForeignSketchException e = assertThrows(
                ForeignSketchException.class,
                () -> GuavaBloomImage.parse(MemorySegment.ofArray(new byte[] {0, 3, 0, 0, 0, 1}), file));
        assertEquals(file, e.file());
        assertEquals("guava-bloom", e.format());
        assertEquals(0, e.offset());
        assertTrue(
                e.getMessage().startsWith(file + ": not a guava-bloom sketch: at byte 0, strategy ordinal 0"),
                e.getMessage());
        assertNull(refused(FORMATS.get(0), new byte[0]).file());
        assertTrue(refused(FORMATS.get(0), new byte[0]).getMessage().startsWith("foreign bytes: "));
    }

    @Test
    void guavaHeadersOutOfRange() {
        Format guava = FORMATS.get(0);
        assertEquals(0, refused(guava, header(2, 3, 1)).offset());
        assertEquals(0, refused(guava, header(-1, 3, 1)).offset());
        assertEquals(1, refused(guava, header(1, 0, 1)).offset());
        assertEquals(2, refused(guava, header(1, 3, 0)).offset());
        assertEquals(2, refused(guava, header(1, 3, -1)).offset());
        assertEquals(14, refused(guava, header(1, 3, Integer.MAX_VALUE)).offset());
    }

    @Test
    void sparkBloomHeadersOutOfRange() {
        Format spark = FORMATS.get(1);
        assertEquals(0, refused(spark, ints(0, 3, 1, 0, 0)).offset());
        assertEquals(0, refused(spark, ints(3, 3, 1, 0, 0)).offset());
        assertEquals(4, refused(spark, ints(1, 0, 1, 0, 0)).offset());
        assertEquals(4, refused(spark, ints(2, -5, 0, 1, 0, 0)).offset());
        assertEquals(8, refused(spark, ints(1, 3, -1)).offset());
        assertEquals(12, refused(spark, ints(2, 3, 0, 0)).offset());
        assertEquals(20, refused(spark, ints(1, 3, Integer.MAX_VALUE, 0, 0)).offset());
        assertEquals(24, refused(spark, ints(2, 3, 7, Integer.MAX_VALUE, 0, 0)).offset());
    }

    @Test
    void sparkCountMinHeadersAndValuesOutOfRange() {
        Format cms = FORMATS.get(3);
        assertEquals(0, refused(cms, cms(2, 0, 1, 1, 0, 0)).offset());
        assertEquals(4, refused(cms, cms(1, -1, 1, 1, 0, 0)).offset());
        assertEquals(12, refused(cms, cms(1, 0, 0, 1)).offset());
        assertEquals(16, refused(cms, cms(1, 0, 1, -3)).offset());
        assertEquals(
                36,
                refused(cms, cms(1, 0, Integer.MAX_VALUE, Integer.MAX_VALUE, 0, 0))
                        .offset());
        assertEquals(20, refused(cms, cms(1, 0, 1, 1, Integer.MAX_VALUE, 0)).offset());
        assertEquals(20, refused(cms, cms(1, 0, 1, 1, -1, 0)).offset());
        assertEquals(28, refused(cms, cms(1, 2, 1, 1, 5, 3)).offset());
        assertEquals(36, refused(cms, cms(1, 2, 1, 2, 5, 1, -1)).offset());
    }

    @Test
    void generatedBytesEitherParseAndRoundTripOrAreRefused() {
        qt().withFixedSeed(QT_SEED + 30)
                .withExamples(3_000)
                .forAll(
                        integers().between(0, FORMATS.size() - 1),
                        ForeignKeys.bytes(64),
                        integers().between(0, 40))
                .checkAssert((which, noise, keep) -> {
                    Format format = FORMATS.get(which);
                    byte[] bytes = Arrays.copyOf(format.valid(), Math.min(keep, format.valid().length) + noise.length);
                    System.arraycopy(noise, 0, bytes, Math.min(keep, format.valid().length), noise.length);
                    try {
                        Object image = format.parser().parse(MemorySegment.ofArray(bytes), null);
                        assertArrayEquals(bytes, rewritten(image));
                    } catch (ForeignSketchException e) {
                        assertTrue(e.offset() >= 0 && e.offset() <= bytes.length, e.getMessage());
                    }
                });
    }

    private static byte[] rewritten(Object image) {
        return switch (image) {
            case GuavaBloomImage guava -> guava.toBytes();
            case SparkBloomImage spark -> spark.toBytes();
            case SparkCountMinImage cms -> cms.toBytes();
            default -> throw new AssertionError(image);
        };
    }

    private static ForeignSketchException refused(Format format, byte[] bytes) {
        Executable parse = () -> format.parser().parse(MemorySegment.ofArray(bytes), null);
        ForeignSketchException e = assertThrows(ForeignSketchException.class, parse, format.name());
        assertEquals(format.name(), e.format());
        return e;
    }

    /** A Guava header: strategy, hash functions, word count, and one zero word. */
    private static byte[] header(int strategy, int hashFunctions, int words) {
        return ByteBuffer.allocate(14)
                .put((byte) strategy)
                .put((byte) hashFunctions)
                .putInt(words)
                .putLong(0)
                .array();
    }

    /** Big-endian ints. */
    private static byte[] ints(int... values) {
        ByteBuffer buffer = ByteBuffer.allocate(values.length * Integer.BYTES);
        for (int value : values) {
            buffer.putInt(value);
        }
        return buffer.array();
    }

    /** A Count-Min image: version, total, depth, width, then longs (multipliers and counters). */
    private static byte[] cms(int version, long total, int depth, int width, long... longs) {
        ByteBuffer buffer = ByteBuffer.allocate(20 + longs.length * Long.BYTES)
                .putInt(version)
                .putLong(total)
                .putInt(depth)
                .putInt(width);
        for (long value : longs) {
            buffer.putLong(value);
        }
        return buffer.array();
    }
}
