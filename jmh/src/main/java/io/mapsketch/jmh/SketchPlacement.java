package io.mapsketch.jmh;

import io.mapsketch.OpenMode;
import io.mapsketch.Sketch;
import io.mapsketch.SketchBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Where a benchmark creates mapsketch's sketch: in anonymous memory (the throughput benchmarks), or
 * in a new file that another process can open (the latency benchmarks' writer case). Peers live on the
 * heap wherever mapsketch's sketch is placed.
 */
final class SketchPlacement {

    /** Anonymous off-heap memory, as {@code createAnonymous(mode)} makes it. */
    static final SketchPlacement ANONYMOUS = new SketchPlacement(null);

    private final Path file;

    private SketchPlacement(Path file) {
        this.file = file;
    }

    /**
     * A new file, which the caller deletes after closing the sketch.
     *
     * @param file the file to create; it must not exist
     * @return the placement
     */
    static SketchPlacement inFile(Path file) {
        return new SketchPlacement(Objects.requireNonNull(file, "file"));
    }

    /**
     * Creates the sketch of {@code builder} here.
     *
     * @param builder the configured builder
     * @param mode the writer's mode
     * @return the new sketch
     * @throws UncheckedIOException if the file cannot be created
     */
    <S extends Sketch> S create(SketchBuilder<?, S> builder, OpenMode mode) {
        if (file == null) {
            return builder.createAnonymous(mode);
        }
        try {
            return builder.create(file, mode);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + file, e);
        }
    }
}
