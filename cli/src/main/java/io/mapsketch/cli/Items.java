package io.mapsketch.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Where a verb's items come from: its ITEM arguments, or, when it has none, standard input with one
 * item per line. Items are handed on as their UTF-8 bytes, which the engine hashes exactly as it
 * hashes the same string, so no line is decoded or copied: standard input is read in 64 KiB chunks
 * and each line passed as a slice of the chunk. A line ends at a newline, with a carriage return
 * before it dropped; the last line needs no newline; an empty line is the empty item. Standard output
 * is flushed after each chunk, so answers to lines typed by hand appear at once.
 *
 * <p>A line that is not UTF-8 text is refused with its line number ({@link Utf8Text}), and so is an item
 * a verb refuses: the verb stops there, every item before it applied and none after it, and says so.
 */
final class Items {

    private static final int CHUNK = 64 * 1024;

    /** Receives one item: the bytes {@code bytes[offset, offset + length)}, valid during the call only. */
    @FunctionalInterface
    interface Sink {
        /**
         * Takes one item.
         *
         * @param bytes the buffer holding it
         * @param offset its first byte
         * @param length its byte count
         */
        void accept(byte[] bytes, int offset, int length);
    }

    /**
     * Receives items in batches: item {@code i} is {@code data[offsets[i], offsets[i] + lengths[i])}, for
     * {@code i < count}, all valid during the call only. The shape the engine's bulk methods take.
     */
    @FunctionalInterface
    interface BatchSink {
        /**
         * Takes a batch of items.
         *
         * @param data the buffer holding them
         * @param offsets where each starts
         * @param lengths each one's byte count
         * @param count how many there are
         */
        void accept(byte[] data, int[] offsets, int[] lengths, int count);
    }

    private Items() {}

    /**
     * Hands every item to {@code sink}, one at a time: the arguments if there are any, else the lines of
     * standard input. An item the sink refuses ({@link IllegalArgumentException} or
     * {@link IllegalStateException}) stops the verb with a {@link CommandFailure} naming the file, the
     * item's position and the reason, and how many items before it were applied.
     *
     * @param file the verb's file, named in a refusal
     * @param arguments the ITEM arguments, empty for none
     */
    static void each(Path file, List<String> arguments, CommandIo io, Sink sink) {
        long[] done = {0};
        eachBatch(
                file,
                arguments,
                io,
                (data, offsets, lengths, count) ->
                        done[0] = each(file, arguments.isEmpty(), done[0], data, offsets, lengths, count, sink));
    }

    /**
     * Hands a batch of argument items ({@link BatchSink}'s shape) to {@code sink}, one at a time, as
     * {@link #each(Path, List, CommandIo, Sink)} hands its arguments: an item refused stops there.
     */
    static void each(Path file, byte[] data, int[] offsets, int[] lengths, int count, Sink sink) {
        each(file, false, 0, data, offsets, lengths, count, sink);
    }

    /** Hands a batch on after {@code done} items, and returns how many are done after it. */
    private static long each(
            Path file, boolean lines, long done, byte[] data, int[] offsets, int[] lengths, int count, Sink sink) {
        for (int i = 0; i < count; i++) {
            try {
                sink.accept(data, offsets[i], lengths[i]);
            } catch (IllegalArgumentException | IllegalStateException refused) {
                throw stopped(file, position(lines, done + 1), refused.getMessage(), done, "item");
            }
            done++;
        }
        return done;
    }

    /**
     * Hands the items to {@code sink} in batches: all the arguments at once if there are any, else the
     * lines of each chunk of standard input, showing progress on a terminal. A line that is not UTF-8
     * stops the verb after the lines before it were handed on.
     *
     * @param file the verb's file, named in a refusal
     * @param arguments the ITEM arguments, empty for none
     * @throws CommandFailure if standard input cannot be read or a line is not UTF-8
     */
    static void eachBatch(Path file, List<String> arguments, CommandIo io, BatchSink sink) {
        if (!arguments.isEmpty()) {
            byte[][] items = arguments.stream()
                    .map(a -> a.getBytes(StandardCharsets.UTF_8))
                    .toArray(byte[][]::new);
            int[] offsets = new int[items.length];
            int[] lengths = new int[items.length];
            byte[] data =
                    new byte[Arrays.stream(items).mapToInt(item -> item.length).sum()];
            int at = 0;
            for (int i = 0; i < items.length; i++) {
                System.arraycopy(items[i], 0, data, at, items[i].length);
                offsets[i] = at;
                lengths[i] = items[i].length;
                at += items[i].length;
            }
            sink.accept(data, offsets, lengths, items.length);
            return;
        }
        Progress progress = new Progress(io.err(), io.terminal(), System::nanoTime);
        try {
            new Lines(file, sink, progress).read(io.in(), io.out());
            progress.finish();
        } catch (IOException e) {
            throw new CommandFailure("standard input: " + e.getMessage());
        }
    }

    /** Where item {@code number} (from 1) came from: a line of standard input, or an argument. */
    private static String position(boolean lines, long number) {
        return lines ? "standard input line " + number : "item " + number;
    }

    /**
     * The refusal that stops a verb at one {@code unit} (an item, a pair, a line of a table), after
     * {@code done} of them were applied.
     */
    static CommandFailure stopped(Path file, String position, String reason, long done, String unit) {
        return new CommandFailure(file + ": " + position + ": " + reason + "; "
                + (done == 0
                        ? "nothing was applied"
                        : done == 1
                                ? "the 1 " + unit + " before it was applied, none after it"
                                : "the " + done + " " + unit + "s before it were applied, none after it"));
    }

    /** The lines of standard input, handed to a sink chunk by chunk, each checked to be UTF-8. */
    private static final class Lines {

        private final Path file;
        private final BatchSink sink;
        private final Progress progress;
        private long handed;

        Lines(Path file, BatchSink sink, Progress progress) {
            this.file = file;
            this.sink = sink;
            this.progress = progress;
        }

        /** Hands each chunk's complete lines to the sink as one batch; the last line needs no newline. */
        void read(InputStream in, PrintWriter out) throws IOException {
            byte[] buffer = new byte[CHUNK];
            int[] offsets = new int[CHUNK];
            int[] lengths = new int[CHUNK];
            int filled = 0;
            while (true) {
                if (filled == buffer.length) {
                    buffer = Arrays.copyOf(buffer, 2 * buffer.length);
                    offsets = new int[buffer.length];
                    lengths = new int[buffer.length];
                }
                int read = in.read(buffer, filled, buffer.length - filled);
                if (read < 0) {
                    if (filled > 0) {
                        slice(buffer, 0, filled, offsets, lengths, 0);
                        hand(buffer, offsets, lengths, 1);
                    }
                    return;
                }
                int end = filled + read;
                int lineStart = 0;
                int items = 0;
                for (int i = filled; i < end; i++) {
                    if (buffer[i] == '\n') {
                        slice(buffer, lineStart, i, offsets, lengths, items++);
                        lineStart = i + 1;
                    }
                }
                hand(buffer, offsets, lengths, items);
                filled = end - lineStart;
                System.arraycopy(buffer, lineStart, buffer, 0, filled);
                out.flush();
            }
        }

        /** Hands the lines on, or those before the first that is not UTF-8 and then refuses that one. */
        private void hand(byte[] buffer, int[] offsets, int[] lengths, int items) {
            for (int i = 0; i < items; i++) {
                int bad = Utf8Text.firstInvalid(buffer, offsets[i], offsets[i] + lengths[i]);
                if (bad >= 0) {
                    if (i > 0) {
                        sink.accept(buffer, offsets, lengths, i);
                    }
                    long line = handed + i + 1;
                    throw stopped(
                            file,
                            "standard input line " + line,
                            String.format(
                                    Locale.ROOT,
                                    "not UTF-8 text (byte 0x%02x at byte %d of the line); items are UTF-8 strings",
                                    buffer[bad] & 0xFF,
                                    bad - offsets[i] + 1),
                            line - 1,
                            "item");
                }
            }
            if (items > 0) {
                sink.accept(buffer, offsets, lengths, items);
            }
            handed += items;
            progress.advance(items);
        }
    }

    /** Records the line {@code buffer[from, to)} as item {@code index}, without a carriage return before its end. */
    private static void slice(byte[] buffer, int from, int to, int[] offsets, int[] lengths, int index) {
        int end = to > from && buffer[to - 1] == '\r' ? to - 1 : to;
        offsets[index] = from;
        lengths[index] = end - from;
    }
}
