package io.mapsketch.cli;

/**
 * The check that a line of standard input is UTF-8 text, as items are: well-formed sequences only, no
 * overlong forms, no surrogates, nothing above U+10FFFF (the rules of RFC 3629). Cost: a byte loop, with
 * a fast path for ASCII.
 */
final class Utf8Text {

    private Utf8Text() {}

    /**
     * Finds the first byte of {@code bytes[from, to)} that does not start or continue a well-formed UTF-8
     * sequence.
     *
     * @return its index, or -1 if the range is UTF-8
     */
    static int firstInvalid(byte[] bytes, int from, int to) {
        int i = from;
        while (i < to) {
            int b = bytes[i];
            if (b >= 0) {
                i++;
                continue;
            }
            int lead = b & 0xFF;
            int length;
            int min;
            int max = 0xBF;
            if (lead >= 0xC2 && lead <= 0xDF) {
                length = 2;
                min = 0x80;
            } else if (lead >= 0xE0 && lead <= 0xEF) {
                length = 3;
                min = lead == 0xE0 ? 0xA0 : 0x80;
                max = lead == 0xED ? 0x9F : 0xBF;
            } else if (lead >= 0xF0 && lead <= 0xF4) {
                length = 4;
                min = lead == 0xF0 ? 0x90 : 0x80;
                max = lead == 0xF4 ? 0x8F : 0xBF;
            } else {
                return i;
            }
            if (i + length > to) {
                return i;
            }
            int second = bytes[i + 1] & 0xFF;
            if (second < min || second > max) {
                return i;
            }
            for (int k = 2; k < length; k++) {
                if ((bytes[i + k] & 0xC0) != 0x80) {
                    return i;
                }
            }
            i += length;
        }
        return -1;
    }
}
