package io.mapsketch.cli;

import io.mapsketch.OpenMode;
import io.mapsketch.Sketch;
import io.mapsketch.membership.ScalableBloomFilter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** What the verbs share about sketch files: the file holding the header, and how a family opens its files. */
final class SketchFiles {

    /** Opens one sketch file. */
    @FunctionalInterface
    interface Opener<S extends Sketch> {
        /**
         * Opens the sketch at {@code file}.
         *
         * @param file the file
         * @param mode how to open it
         * @return the open sketch
         * @throws IOException if it cannot be opened as this kind
         */
        S open(Path file, OpenMode mode) throws IOException;
    }

    private SketchFiles() {}

    /**
     * The file that holds the header: the path itself, or a scalable filter's manifest in its directory
     * (a directory without one is refused, naming the directory).
     */
    static Path headerFile(Path path) throws IOException {
        return Files.isDirectory(path) ? ScalableBloomFilter.manifestOf(path) : path;
    }
}
