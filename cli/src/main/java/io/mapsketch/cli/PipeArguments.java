package io.mapsketch.cli;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The arguments of one command line of {@code mapsketch pipe}, split as redis-cli splits them: by
 * spaces and tabs; in double quotes a space is kept and a backslash escapes ({@code \"}, {@code \\},
 * {@code \n}, {@code \r}, {@code \t}, {@code \b}, {@code \a}, {@code \xHH}, any other character itself);
 * in single quotes only {@code \'} is an escape; a closing quote must end the argument. The line is
 * split in place (an argument's bytes never grow when unescaped), so each argument is a slice of the
 * line's buffer. Cost: one pass over the line, no allocation once the arrays fit the widest line.
 */
final class PipeArguments {

    private byte[] data = new byte[0];
    private int[] offsets = new int[16];
    private int[] lengths = new int[16];
    private int count;

    /**
     * Splits {@code line[from, to)}, overwriting it.
     *
     * @return {@code null}, or why the line cannot be split (unbalanced quotes)
     */
    String split(byte[] line, int from, int to) {
        data = line;
        count = 0;
        int i = from;
        while (true) {
            while (i < to && isSpace(line[i])) {
                i++;
            }
            if (i == to) {
                return null;
            }
            int start = i;
            int write = i;
            byte quote = 0;
            while (i < to) {
                byte b = line[i];
                if (quote == 0) {
                    if (isSpace(b)) {
                        break;
                    }
                    if (b == '"' || b == '\'') {
                        quote = b;
                    } else {
                        line[write++] = b;
                    }
                    i++;
                } else if (b == quote) {
                    if (i + 1 < to && !isSpace(line[i + 1])) {
                        return "a closing quote must be followed by a space or end the line";
                    }
                    quote = 0;
                    i++;
                    break;
                } else if (b == '\\' && i + 1 < to && (quote == '"' || line[i + 1] == '\'')) {
                    int escaped = hexByte(line, i + 2, to);
                    if (line[i + 1] == 'x' && quote == '"' && escaped >= 0) {
                        line[write++] = (byte) escaped;
                        i += 4;
                    } else {
                        line[write++] = quote == '"' ? unescaped(line[i + 1]) : line[i + 1];
                        i += 2;
                    }
                } else {
                    line[write++] = b;
                    i++;
                }
            }
            if (quote != 0) {
                return "unbalanced quotes";
            }
            add(start, write - start);
        }
    }

    private void add(int offset, int length) {
        if (count == offsets.length) {
            offsets = Arrays.copyOf(offsets, 2 * count);
            lengths = Arrays.copyOf(lengths, 2 * count);
        }
        offsets[count] = offset;
        lengths[count] = length;
        count++;
    }

    private static boolean isSpace(byte b) {
        return b == ' ' || b == '\t' || b == '\r' || b == '\n' || b == 0x0B || b == '\f';
    }

    private static byte unescaped(byte b) {
        return switch (b) {
            case 'n' -> '\n';
            case 'r' -> '\r';
            case 't' -> '\t';
            case 'b' -> '\b';
            case 'a' -> 0x07;
            default -> b;
        };
    }

    /** The byte that the two hex digits at {@code line[at, at + 2)} spell, or -1. */
    private static int hexByte(byte[] line, int at, int to) {
        if (at + 2 > to) {
            return -1;
        }
        int high = Character.digit(line[at], 16);
        int low = Character.digit(line[at + 1], 16);
        return high < 0 || low < 0 ? -1 : high << 4 | low;
    }

    /** How many arguments the line has, the command's name included. */
    int count() {
        return count;
    }

    /** The buffer holding every argument. */
    byte[] data() {
        return data;
    }

    /** Where argument {@code i} starts in {@link #data()}. */
    int offset(int i) {
        return offsets[i];
    }

    /** Argument {@code i}'s byte count. */
    int length(int i) {
        return lengths[i];
    }

    /** Argument {@code i} as a string. */
    String text(int i) {
        return new String(data, offsets[i], lengths[i], StandardCharsets.UTF_8);
    }

    /** Whether argument {@code i} is {@code ascii}, letters in any case (the command's names and keywords). */
    boolean is(int i, String ascii) {
        if (lengths[i] != ascii.length()) {
            return false;
        }
        for (int k = 0; k < lengths[i]; k++) {
            if (Character.toUpperCase(data[offsets[i] + k]) != ascii.charAt(k)) {
                return false;
            }
        }
        return true;
    }

    /** Copies the offsets and lengths of the arguments from {@code first} on into arrays from index 0. */
    int copyFrom(int first, int[] intoOffsets, int[] intoLengths) {
        System.arraycopy(offsets, first, intoOffsets, 0, count - first);
        System.arraycopy(lengths, first, intoLengths, 0, count - first);
        return count - first;
    }
}
