package io.mapsketch.cli;

import io.mapsketch.OpenMode;
import io.mapsketch.PayloadVerification;
import io.mapsketch.Sketch;
import io.mapsketch.internal.Regions;
import io.mapsketch.membership.ScalableBloomFilter;
import io.mapsketch.memory.SketchRegion;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code mapsketch verify FILE...}: compares each file's payload with the checksum in its header, read-only,
 * and prints one line per file: {@code FILE: ok}, {@code FILE: corrupt: payload bytes [a, b) do not match their
 * checksum}, {@code FILE: stale: <reason>; ...} or {@code FILE: no checksum: format version N}. A scalable
 * filter's directory is verified link by link and the line names the link at fault. A file that cannot be
 * opened gets the usual one line on standard error, and the others are still verified.
 */
final class Verify {

    /** Exit status when no file is corrupt or unreadable but one could not be shown intact (stale, no checksum). */
    static final int NOT_PROVEN = 3;

    private Verify() {}

    /**
     * Verifies every file in order.
     *
     * @return 0 if every file is ok, 1 if one is corrupt or cannot be opened, otherwise {@value #NOT_PROVEN}
     */
    static int run(List<Path> paths, CommandIo io) {
        boolean faulty = false;
        boolean unproven = false;
        for (Path path : paths) {
            try {
                PayloadVerification result = verify(path);
                io.out().println(path + ": " + culprit(path, result) + result.describe());
                faulty |= result.state() == PayloadVerification.State.CORRUPT;
                unproven |= !result.isOk();
            } catch (IOException | UncheckedIOException e) {
                io.err().println("mapsketch: " + FaultHandler.describe(e));
                faulty = true;
            }
        }
        return faulty ? 1 : unproven ? NOT_PROVEN : 0;
    }

    /**
     * A directory's files are verified by the sketch they make up; a file by its region alone: the
     * checksum covers its bytes whatever parameters its header holds, even ones no sketch would accept.
     */
    private static PayloadVerification verify(Path path) throws IOException {
        if (Files.isDirectory(path)) {
            try (Sketch sketch = Sketch.open(path, OpenMode.READ_ONLY)) {
                return sketch.verify();
            }
        }
        try (SketchRegion region = Regions.open(path, OpenMode.READ_ONLY, null, null)) {
            return Regions.verify(region);
        }
    }

    /** The link's name and a colon when the file at fault is one of a scalable filter's links, else nothing. */
    private static String culprit(Path path, PayloadVerification result) {
        Path file = result.file();
        boolean link = !result.isOk()
                && file != null
                && Files.isDirectory(path)
                && !file.getFileName().toString().equals(ScalableBloomFilter.MANIFEST);
        return link ? file.getFileName() + ": " : "";
    }
}
