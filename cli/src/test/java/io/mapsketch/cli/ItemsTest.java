package io.mapsketch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How standard input splits into items. */
class ItemsTest {

    private static List<String> items(String input) {
        List<String> items = new ArrayList<>();
        CommandIo io = new CommandIo(
                new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)),
                new PrintWriter(new StringWriter()),
                new PrintWriter(new StringWriter()),
                false);
        Items.each(
                Path.of("items"),
                List.of(),
                io,
                (bytes, offset, length) -> items.add(new String(bytes, offset, length, StandardCharsets.UTF_8)));
        return items;
    }

    @Test
    void oneItemPerLineWithOrWithoutTheLastNewline() {
        assertEquals(List.of(), items(""));
        assertEquals(List.of("a"), items("a"));
        assertEquals(List.of("a"), items("a\n"));
        assertEquals(List.of("a", "", "b"), items("a\n\nb\n"));
        assertEquals(List.of("a", "b", "c\rd"), items("a\r\nb\r\nc\rd"));
        assertEquals(List.of("", "ünïcödé ✓"), items("\nünïcödé ✓\n"));
    }

    @Test
    void linesLongerThanAChunkAndManyChunks() {
        String longLine = "x".repeat(200_000);
        assertEquals(List.of("a", longLine, "b"), items("a\n" + longLine + "\nb"));
        StringBuilder many = new StringBuilder();
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 50_000; i++) {
            many.append("item-").append(i).append('\n');
            expected.add("item-" + i);
        }
        assertEquals(expected, items(many.toString()));
    }

    @Test
    void argumentsWinOverStandardInput() {
        List<String> seen = new ArrayList<>();
        CommandIo io = new CommandIo(
                new ByteArrayInputStream("ignored\n".getBytes(StandardCharsets.UTF_8)),
                new PrintWriter(new StringWriter()),
                new PrintWriter(new StringWriter()),
                false);
        Items.each(
                Path.of("items"),
                List.of("é", "b"),
                io,
                (bytes, offset, length) -> seen.add(new String(bytes, offset, length, StandardCharsets.UTF_8)));
        assertEquals(List.of("é", "b"), seen);
    }
}
