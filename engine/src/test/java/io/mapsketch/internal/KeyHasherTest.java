package io.mapsketch.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;
import static org.quicktheories.generators.SourceDSL.strings;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Every key form of the same bytes hashes alike (the Agrona forms are the agrona module's tests). */
class KeyHasherTest {

    @Test
    void utf8EncodingMatchesTheJdkIncludingUnpairedSurrogates() {
        qt().withFixedSeed(31L)
                .withExamples(3_000)
                .forAll(strings().allPossible().ofLengthBetween(0, 40))
                .checkAssert(text -> {
                    byte[] out = new byte[Utf8.maxEncodedLength(text.length())];
                    int length = Utf8.encode(text, out);
                    assertArrayEquals(text.getBytes(StandardCharsets.UTF_8), Arrays.copyOf(out, length), text);
                });
        for (String edge : new String[] {"\uD800", "a\uDC00b", "\uDBFF\uDFFF", "\uD83D\uDE00\uD83D", "\u07FF\u0800"}) {
            byte[] out = new byte[Utf8.maxEncodedLength(edge.length())];
            assertArrayEquals(edge.getBytes(StandardCharsets.UTF_8), Arrays.copyOf(out, Utf8.encode(edge, out)));
        }
    }

    @Test
    void stringsAndBytesOfTheSameBytesHashAlike() {
        qt().withFixedSeed(37L)
                .withExamples(1_000)
                .forAll(
                        strings().basicMultilingualPlaneAlphabet().ofLengthBetween(0, 300),
                        longs().all(),
                        integers().between(0, 9))
                .checkAssert((text, seed, pad) -> {
                    KeyHasher hasher = KeyHasher.xxh3(seed);
                    byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
                    long expected = hasher.hash(utf8, 0, utf8.length);
                    assertEquals(expected, hasher.hash(text));
                    assertEquals(expected, hasher.hash(new StringBuilder(text)));

                    byte[] padded = new byte[pad + utf8.length + 3];
                    System.arraycopy(utf8, 0, padded, pad, utf8.length);
                    assertEquals(expected, hasher.hash(padded, pad, utf8.length));
                });
    }

    @Test
    void rangesOutsideTheKeyAreRefused() {
        KeyHasher hasher = KeyHasher.xxh3(0);
        assertThrows(IndexOutOfBoundsException.class, () -> hasher.hash(new byte[4], 2, 3));
    }
}
