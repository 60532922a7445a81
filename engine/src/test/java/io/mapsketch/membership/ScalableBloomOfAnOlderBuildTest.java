package io.mapsketch.membership;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mapsketch.OpenMode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A scalable Bloom filter written at commit f31aedc, before the engine took its package layout, opens
 * and answers as that build answered: expected items 200 at rate 0.01, seed 0, the {@code long} keys 0
 * to 1,499 then the strings item-0 to item-1499 added, four links. {@code answers.txt} holds what that
 * build answered for the {@code long} keys 1,500 to 2,999 and the strings item-1500 to item-2999, none
 * of them added, as one digit each.
 */
class ScalableBloomOfAnOlderBuildTest {

    private static final String RESOURCES = "/scalable-f31aedc/";
    private static final List<String> FILES =
            List.of("manifest.sketch", "link-0000.sketch", "link-0001.sketch", "link-0002.sketch", "link-0003.sketch");

    @TempDir
    Path dir;

    @Test
    void itOpensAndAnswersAsTheOlderBuildDid() throws IOException {
        for (String name : FILES) {
            Files.write(dir.resolve(name), resource(name));
        }
        Map<String, String> answers = new String(resource("answers.txt"), StandardCharsets.UTF_8)
                .lines()
                .map(line -> line.split(" ", 2))
                .collect(Collectors.toMap(words -> words[0], words -> words[1]));
        try (ScalableBloomFilter filter = ScalableBloomFilter.open(dir, OpenMode.READ_ONLY)) {
            assertEquals(Integer.parseInt(answers.get("links")), filter.links());
            StringBuilder longs = new StringBuilder();
            StringBuilder strings = new StringBuilder();
            for (int i = 1_500; i < 3_000; i++) {
                longs.append(filter.mightContain((long) i) ? '1' : '0');
                strings.append(filter.mightContain("item-" + i) ? '1' : '0');
            }
            assertEquals(answers.get("longs"), longs.toString());
            assertEquals(answers.get("strings"), strings.toString());
            for (int i = 0; i < 1_500; i++) {
                assertTrue(filter.mightContain((long) i) && filter.mightContain("item-" + i), "key " + i);
            }
        }
    }

    private static byte[] resource(String name) throws IOException {
        try (InputStream in = ScalableBloomOfAnOlderBuildTest.class.getResourceAsStream(RESOURCES + name)) {
            return Objects.requireNonNull(in, name).readAllBytes();
        }
    }
}
