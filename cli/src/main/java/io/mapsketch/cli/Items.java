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

    private Items() {
    }

    /**
     * Hands every item to {@code sink}: the arguments if there are any, else the lines of standard input.
     *
     * @param arguments the ITEM arguments, empty for none
     */
    static void each(List<String> arguments, CommandIo io, Sink sink) {
        if (arguments.isEmpty()) {
            eachLine(io, sink);
            return;
        }
        for (String argument : arguments) {
            byte[] bytes = argument.getBytes(StandardCharsets.UTF_8);
            sink.accept(bytes, 0, bytes.length);
        }
    }

    /**
     * Hands every line of standard input to {@code sink}, showing progress on a terminal.
     *
     * @throws CommandFailure if standard input cannot be read
     */
    static void eachLine(CommandIo io, Sink sink) {
        Progress progress = new Progress(io.err(), io.terminal(), System::nanoTime);
        try {
            eachLine(io.in(), io.out(), sink, progress);
            progress.finish();
        } catch (IOException e) {
            throw new CommandFailure("standard input: " + e.getMessage());
        }
    }

    private static void eachLine(InputStream in, PrintWriter out, Sink sink, Progress progress) throws IOException {
        byte[] buffer = new byte[CHUNK];
        int filled = 0;
        while (true) {
            if (filled == buffer.length) {
                buffer = Arrays.copyOf(buffer, 2 * buffer.length);
            }
            int read = in.read(buffer, filled, buffer.length - filled);
            if (read < 0) {
                if (filled > 0) {
                    emit(buffer, 0, filled, sink);
                    progress.advance(1);
                }
                return;
            }
            int end = filled + read;
            int lineStart = 0;
            int items = 0;
            for (int i = filled; i < end; i++) {
                if (buffer[i] == '\n') {
                    emit(buffer, lineStart, i, sink);
                    lineStart = i + 1;
                    items++;
                }
            }
            filled = end - lineStart;
            System.arraycopy(buffer, lineStart, buffer, 0, filled);
            progress.advance(items);
            out.flush();
        }
    }

    private static void emit(byte[] buffer, int from, int to, Sink sink) {
        int end = to > from && buffer[to - 1] == '\r' ? to - 1 : to;
        sink.accept(buffer, from, end - from);
    }
}
