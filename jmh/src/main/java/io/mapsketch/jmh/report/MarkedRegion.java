package io.mapsketch.jmh.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Replaces the generated part of a hand-kept document: the text between the lines
 * {@code <!-- NAME:begin -->} and {@code <!-- NAME:end -->}, which stay in place. Everything outside
 * them is left as it was.
 */
final class MarkedRegion {

    private MarkedRegion() {}

    /**
     * Writes {@code content} between the markers named {@code name} in {@code file}.
     *
     * @throws IOException if the file cannot be read or written, or lacks either marker (naming the
     *     file and the marker)
     */
    static void replace(Path file, String name, String content) throws IOException {
        String text = Files.readString(file, StandardCharsets.UTF_8);
        String begin = "<!-- " + name + ":begin -->\n";
        String end = "<!-- " + name + ":end -->";
        int from = text.indexOf(begin);
        int to = text.indexOf(end);
        if (from < 0 || to < from) {
            throw new IOException(
                    file + ": no region '" + begin.strip() + "' ... '" + end + "' to write the generated text into");
        }
        String body = content.endsWith("\n") ? content : content + "\n";
        Files.writeString(
                file, text.substring(0, from + begin.length()) + body + text.substring(to), StandardCharsets.UTF_8);
    }
}
