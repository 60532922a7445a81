package io.mapsketch.cli;

import java.io.PrintWriter;
import java.util.Arrays;

/**
 * The replies of {@code mapsketch pipe}, one line per command: its values separated by one space, or
 * {@code ERR MESSAGE}. A value is written as it is unless it is empty or holds a space, a quote, a
 * backslash or a control character; then it is written in double quotes with the escapes the pipe reads
 * ({@link PipeArguments}), so that every value is one word of the reply line. Lines gather in a buffer
 * written to standard output when it fills and on {@link #flush}.
 */
final class PipeReply {

    private static final int FLUSH_AT = 32 * 1024;

    private final PrintWriter out;
    private char[] chars = new char[2 * FLUSH_AT];
    private int length;
    private int lineStart;

    PipeReply(PrintWriter out) {
        this.out = out;
    }

    /** Appends an integer value (Redis's integer replies: 1 or 0, counts). */
    void integer(long value) {
        separate();
        if (value == 0 || value == 1) {
            append((char) ('0' + value));
        } else {
            append(Long.toString(value));
        }
    }

    /** Appends a value: an item, an estimate with its mark, a line of a verb's reply. */
    void value(String text) {
        separate();
        if (!needsQuotes(text)) {
            append(text);
            return;
        }
        append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"', '\\' -> {
                    append('\\');
                    append(c);
                }
                case '\n' -> append("\\n");
                case '\r' -> append("\\r");
                case '\t' -> append("\\t");
                case '\b' -> append("\\b");
                case 0x07 -> append("\\a");
                default -> {
                    if (c < 0x20 || c == 0x7F) {
                        append("\\x");
                        append(Character.forDigit(c >> 4, 16));
                        append(Character.forDigit(c & 0xF, 16));
                    } else {
                        append(c);
                    }
                }
            }
        }
        append('"');
    }

    /** Whether the command's line holds a value yet. */
    boolean isEmpty() {
        return length == lineStart;
    }

    /** Ends the command's line. */
    void end() {
        append('\n');
        lineStart = length;
        if (length >= FLUSH_AT) {
            out.write(chars, 0, length);
            length = 0;
            lineStart = 0;
        }
    }

    /** Replaces the command's values by {@code ERR MESSAGE} and ends its line. */
    void error(String message) {
        length = lineStart;
        append("ERR ");
        append(message.replaceAll("\\R+", " "));
        end();
    }

    /** Writes the lines so far and flushes standard output. */
    void flush() {
        out.write(chars, 0, length);
        length = 0;
        lineStart = 0;
        out.flush();
    }

    private void separate() {
        if (length > lineStart) {
            append(' ');
        }
    }

    private static boolean needsQuotes(String text) {
        if (text.isEmpty()) {
            return true;
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c <= ' ' || c == '"' || c == '\'' || c == '\\' || c == 0x7F) {
                return true;
            }
        }
        return false;
    }

    private void append(char c) {
        if (length == chars.length) {
            chars = Arrays.copyOf(chars, 2 * length);
        }
        chars[length++] = c;
    }

    private void append(String text) {
        if (length + text.length() > chars.length) {
            chars = Arrays.copyOf(chars, Math.max(2 * chars.length, length + text.length()));
        }
        text.getChars(0, text.length(), chars, length);
        length += text.length();
    }
}
