package io.mapsketch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Which bytes are UTF-8 text: the rules of RFC 3629, checked against the JDK's encoder and its refusals. */
class Utf8TextTest {

    private static int firstInvalid(int... bytes) {
        byte[] array = new byte[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            array[i] = (byte) bytes[i];
        }
        return Utf8Text.firstInvalid(array, 0, array.length);
    }

    @Test
    void everyCodePointEncodedByTheJdkIsText() {
        StringBuilder all = new StringBuilder();
        for (int codePoint = 0; codePoint <= Character.MAX_CODE_POINT; codePoint += 7) {
            if (codePoint < Character.MIN_SURROGATE || codePoint > Character.MAX_SURROGATE) {
                all.appendCodePoint(codePoint);
            }
        }
        byte[] bytes = all.toString().getBytes(StandardCharsets.UTF_8);
        assertEquals(-1, Utf8Text.firstInvalid(bytes, 0, bytes.length));
    }

    @Test
    void malformedSequencesAreFoundWhereTheyStart() {
        assertEquals(-1, firstInvalid('a', 0xC3, 0xBC, 'b'));
        assertEquals(1, firstInvalid('a', 0xFF), "a byte no sequence starts with");
        assertEquals(0, firstInvalid(0x80), "a lone continuation byte");
        assertEquals(0, firstInvalid(0xC0, 0x80), "an overlong NUL");
        assertEquals(0, firstInvalid(0xE0, 0x80, 0x80), "an overlong three-byte form");
        assertEquals(0, firstInvalid(0xED, 0xA0, 0x80), "a surrogate, U+D800");
        assertEquals(0, firstInvalid(0xF4, 0x90, 0x80, 0x80), "above U+10FFFF");
        assertEquals(1, firstInvalid('x', 0xE2, 0x82), "a sequence cut short by the end of the line");
        assertEquals(0, firstInvalid(0xE2, 0x28, 0xA1), "a sequence broken by an ASCII byte");
        assertEquals(-1, firstInvalid(0xF0, 0x9F, 0x98, 0x80), "U+1F600");
    }
}
