package io.mapsketch.micrometer;

import io.mapsketch.Sketch;
import io.mapsketch.membership.ScalableBloomFilter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Where a sketch lives, as its users name it (a scalable filter by its directory, every other sketch by
 * its file), and the bytes that takes on disk.
 */
final class SketchFiles {

    private SketchFiles() {}

    /** The path a user opens the sketch from, or empty for an anonymous sketch. */
    static Optional<Path> location(Sketch sketch) {
        return sketch instanceof ScalableBloomFilter ? sketch.file().map(Path::getParent) : sketch.file();
    }

    /** The file's length (one {@code stat}), or for a directory the sum over its regular files (one listing). */
    static double bytes(Sketch sketch) {
        Path path = location(sketch).orElseThrow();
        try {
            if (!Files.isDirectory(path)) {
                return Files.size(path);
            }
            try (Stream<Path> files = Files.list(path)) {
                return files.filter(Files::isRegularFile)
                        .mapToLong(SketchFiles::size)
                        .sum();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
