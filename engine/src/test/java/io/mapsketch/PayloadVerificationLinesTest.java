package io.mapsketch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.mapsketch.PayloadVerification.State;
import io.mapsketch.membership.BloomFilter;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The one line {@code mapsketch verify} prints for each state, and the order {@code worseOf} picks by. */
class PayloadVerificationLinesTest {

    @TempDir
    Path dir;

    private static PayloadVerification of(State state, long from, long to, int version, int writers) {
        return new PayloadVerification(state, Path.of("f.sketch"), from, to, version, writers);
    }

    @Test
    void eachStateSaysWhatWasFoundInOneLine() {
        assertEquals("ok", of(State.OK, 0, 0, 4, 0).describe());
        assertEquals(
                "no checksum: an anonymous sketch is not persisted",
                of(State.NOT_PERSISTED, 0, 0, 4, 0).describe());
        assertEquals(
                "no checksum: format version 3",
                of(State.NO_CHECKSUM, 0, 0, 3, 0).describe());
        assertEquals(
                "corrupt: payload bytes [65536, 131072) do not match their checksum",
                of(State.CORRUPT, 65_536, 131_072, 4, 0).describe());
        assertEquals(
                "stale: 1 writer attached, or killed while open; payload bytes [262144, 327680) differ"
                        + " from the checksum",
                of(State.STALE_WRITERS_ATTACHED, 262_144, 327_680, 4, 1).describe());
        assertEquals(
                "stale: 2 writers attached, or killed while open; payload bytes [0, 64) differ from the" + " checksum",
                of(State.STALE_WRITERS_ATTACHED, 0, 64, 4, 2).describe());
        assertEquals(
                "stale: a writer opened the file while it was verified; payload bytes [0, 64) differ from the"
                        + " checksum",
                of(State.STALE_WRITERS_ATTACHED, 0, 64, 4, 0).describe());
        assertEquals(
                "stale: closed uncleanly, or still closing; payload bytes [0, 64) differ from the checksum",
                of(State.STALE_CLOSED_UNCLEANLY, 0, 64, 4, 0).describe());
        assertThrows(IllegalArgumentException.class, () -> of(State.CORRUPT, 64, 0, 4, 0));
    }

    @Test
    void theWorseOfTwoFollowsTheStatesOrder() {
        PayloadVerification ok = of(State.OK, 0, 0, 4, 0);
        PayloadVerification corrupt = of(State.CORRUPT, 0, 64, 4, 0);
        assertSame(corrupt, ok.worseOf(corrupt));
        assertSame(corrupt, corrupt.worseOf(ok));
        assertSame(ok, ok.worseOf(of(State.OK, 0, 0, 4, 0)));
    }

    @Test
    void aFileWithAWriterAttachedSaysSoInItsLine() throws IOException {
        Path file = dir.resolve("attached.bloom");
        try (BloomFilter writer = BloomFilter.builder()
                        .expectedItems(100_000)
                        .falsePositiveRate(0.01)
                        .create(file, OpenMode.SHARED);
                BloomFilter reader = BloomFilter.open(file, OpenMode.READ_ONLY)) {
            writer.add("a key");
            PayloadVerification result = reader.verify();
            assertEquals(State.STALE_WRITERS_ATTACHED, result.state(), result.describe());
            assertEquals(1, result.writers());
            assertEquals(file, result.file());
            assertEquals(
                    "stale: 1 writer attached, or killed while open; payload bytes [" + result.from() + ", "
                            + result.to() + ") differ from the checksum",
                    result.describe());
        }
        try (BloomFilter closed = BloomFilter.open(file, OpenMode.READ_ONLY)) {
            assertEquals("ok", closed.verify().describe());
        }
    }
}
