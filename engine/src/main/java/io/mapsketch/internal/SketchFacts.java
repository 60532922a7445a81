package io.mapsketch.internal;

import io.mapsketch.CreateOption;
import io.mapsketch.OpenMode;
import io.mapsketch.Sketch;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the command asks of any sketch without knowing its family: the figures {@code info} shows, and an
 * empty sketch of another's shape for a merge into a destination that does not exist yet. Each family
 * answers for itself; the sketch must be one of this module's.
 */
public final class SketchFacts {

    private SketchFacts() {}

    /**
     * The sketch's figures, name to value in the order to show them: its shape (header parameters), its
     * memory, and the error and estimates of its family (fill, current false-positive rate and estimated
     * items of a filter, error bound of a Count-Min sketch, estimate of a HyperLogLog, ...). Cost: up to a
     * pass over the payload.
     *
     * @param sketch an open sketch
     * @return the figures; values are numbers, booleans or text
     */
    public static Map<String, Object> of(Sketch sketch) {
        Map<String, Object> figures = new LinkedHashMap<>();
        ((RegionSketch) sketch).putFigures(figures);
        return figures;
    }

    /**
     * Creates an empty sketch at {@code path} of {@code shape}'s kind, header parameters, hash scheme and
     * seed, so that {@code shape} merges into it; a scalable Bloom filter gets a directory and a chain of
     * its own.
     *
     * @param shape the sketch whose shape to take, unchanged
     * @param path where to create it
     * @param mode {@code SHARED} or {@code EXCLUSIVE}
     * @param options as {@link io.mapsketch.SketchBuilder#create}
     * @return the new sketch, open in {@code mode}
     * @throws java.nio.file.FileAlreadyExistsException if {@code path} exists and overwriting was not asked for
     * @throws IOException if the file cannot be written
     */
    public static Sketch createEmptyLike(Sketch shape, Path path, OpenMode mode, CreateOption... options)
            throws IOException {
        return ((RegionSketch) shape).createEmptyLike(path, mode, options);
    }
}
