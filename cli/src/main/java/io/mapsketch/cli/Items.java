package io.mapsketch.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * Where a verb's items come from: its ITEM arguments, or, when it has none, standard input with one
 * item per line. Items are handed on as their UTF-8 bytes, which the engine hashes exactly as it
 * hashes the same string, so no line is decoded or copied: standard input is read in 64 KiB chunks
 * and each line passed as a slice of the chunk. A line ends at a newline, with a carriage return
 * before it dropped; the last line needs no newline; an empty line is the empty item. Standard output
 * is flushed after each chunk, so answers to lines typed by hand appear at once.
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
     * Hands every item to {@code sink}: the arguments if there are any, else the lines of standard input.
     *
     * @param arguments the ITEM arguments, empty for none
     */
    static void each(List<String> arguments, CommandIo io, Sink sink) {
        eachBatch(arguments, io, (data, offsets, lengths, count) -> {
            for (int i = 0; i < count; i++) {
                sink.accept(data, offsets[i], lengths[i]);
            }
        });
    }

    /**
     * Hands the items to {@code sink} in batches: all the arguments at once if there are any, else the
     * lines of each chunk of standard input, showing progress on a terminal.
     *
     * @param arguments the ITEM arguments, empty for none
     * @throws CommandFailure if standard input cannot be read
     */
    static void eachBatch(List<String> arguments, CommandIo io, BatchSink sink) {
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
            eachLine(io.in(), io.out(), sink, progress);
            progress.finish();
        } catch (IOException e) {
            throw new CommandFailure("standard input: " + e.getMessage());
        }
    }

    /** Hands each chunk's complete lines to {@code sink} as one batch; the last line needs no newline. */
    private static void eachLine(InputStream in, PrintWriter out, BatchSink sink, Progress progress)
            throws IOException {
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
                    sink.accept(buffer, offsets, lengths, 1);
                    progress.advance(1);
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
            if (items > 0) {
                sink.accept(buffer, offsets, lengths, items);
            }
            filled = end - lineStart;
            System.arraycopy(buffer, lineStart, buffer, 0, filled);
            progress.advance(items);
            out.flush();
        }
    }

    /** Records the line {@code buffer[from, to)} as item {@code index}, without a carriage return before its end. */
    private static void slice(byte[] buffer, int from, int to, int[] offsets, int[] lengths, int index) {
        int end = to > from && buffer[to - 1] == '\r' ? to - 1 : to;
        offsets[index] = from;
        lengths[index] = end - from;
    }
}
