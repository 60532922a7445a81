package io.mapsketch.internal;

/**
 * UTF-8 encoding of a {@link CharSequence} into a caller's array, byte for byte what
 * {@code String.getBytes(StandardCharsets.UTF_8)} produces (an unpaired surrogate becomes {@code '?'}),
 * so a key hashed from a {@code String} equals the same key hashed from its UTF-8 bytes.
 */
public final class Utf8 {

    private Utf8() {}

    /** The most bytes {@code chars} characters can take: three per UTF-16 unit. */
    public static int maxEncodedLength(int chars) {
        return Math.multiplyExact(chars, 3);
    }

    /** Encodes the characters into {@code out}, which must hold {@link #maxEncodedLength}; returns the length. */
    public static int encode(CharSequence chars, byte[] out) {
        int length = chars.length();
        int at = 0;
        for (int i = 0; i < length; i++) {
            char c = chars.charAt(i);
            if (c < 0x80) {
                out[at++] = (byte) c;
            } else if (c < 0x800) {
                out[at++] = (byte) (0xC0 | c >> 6);
                out[at++] = (byte) (0x80 | c & 0x3F);
            } else if (Character.isHighSurrogate(c)
                    && i + 1 < length
                    && Character.isLowSurrogate(chars.charAt(i + 1))) {
                int codePoint = Character.toCodePoint(c, chars.charAt(++i));
                out[at++] = (byte) (0xF0 | codePoint >> 18);
                out[at++] = (byte) (0x80 | codePoint >> 12 & 0x3F);
                out[at++] = (byte) (0x80 | codePoint >> 6 & 0x3F);
                out[at++] = (byte) (0x80 | codePoint & 0x3F);
            } else if (Character.isSurrogate(c)) {
                out[at++] = '?';
            } else {
                out[at++] = (byte) (0xE0 | c >> 12);
                out[at++] = (byte) (0x80 | c >> 6 & 0x3F);
                out[at++] = (byte) (0x80 | c & 0x3F);
            }
        }
        return at;
    }

    /** The UTF-8 bytes of the characters, a new array of their exact length. */
    public static byte[] bytes(CharSequence chars) {
        byte[] out = new byte[maxEncodedLength(chars.length())];
        return java.util.Arrays.copyOf(out, encode(chars, out));
    }
}
