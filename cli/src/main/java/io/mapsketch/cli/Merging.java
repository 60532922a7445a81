package io.mapsketch.cli;

import io.mapsketch.Mergeable;
import io.mapsketch.OpenMode;
import io.mapsketch.Sketch;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * How files merge: the destination opens as a shared writer (adds by other processes go on meanwhile)
 * and every source read-only; all sources must open, be other files than the destination and have its
 * kind and seed before anything is merged. Then each source is merged in turn; one that the engine
 * refuses (another shape) stops the merge with one line naming both files, and the sources before it
 * stay merged.
 */
final class Merging {

    /** Merges one open source into the open destination. */
    @FunctionalInterface
    interface Step<S extends Sketch> {
        /**
         * Merges {@code from} into {@code into}, both of one kind.
         *
         * @param into the destination, writable
         * @param from the source, unchanged
         * @throws IllegalArgumentException if their parameters or seeds differ
         */
        void merge(S into, S from);
    }

    private Merging() {}

    /**
     * {@code mapsketch merge}: the destination opens as the kind its header names, the sources as the
     * destination's family reads its files, and each merges through {@link Mergeable}; a destination
     * of a kind that does not merge is refused with its family's reason.
     */
    static void merge(Path destination, List<Path> sources, List<SketchFamily> families) throws IOException {
        refuseItself(destination, sources);
        try (Sketch into = Sketch.open(destination, OpenMode.SHARED)) {
            SketchFamily family = families.stream()
                    .filter(f -> f.reads(into.kind()))
                    .findFirst()
                    .orElseThrow(() -> new CommandFailure(destination + ": " + into.kind() + " sketches cannot be"
                            + " merged by this version of the command"));
            if (!(into instanceof Mergeable<?>)) {
                throw new CommandFailure(destination + ": " + family.mergeRefusal());
            }
            mergeInto(into, destination, sources, family::open, family::mergeStep);
        }
    }

    /** A family's own merge verb: the destination and the sources open with {@code opener}, merged by {@code step}. */
    static <S extends Sketch> void merge(
            Path destination, List<Path> sources, SketchFiles.Opener<S> opener, Step<S> step) throws IOException {
        refuseItself(destination, sources);
        try (S into = opener.open(destination, OpenMode.SHARED)) {
            mergeInto(into, destination, sources, opener, step);
        }
    }

    private static void refuseItself(Path destination, List<Path> sources) throws IOException {
        for (Path source : sources) {
            if (Files.exists(source) && Files.exists(destination) && Files.isSameFile(source, destination)) {
                throw new CommandFailure(source + ": is the destination itself; merging a sketch into itself"
                        + " would count its items twice");
            }
        }
    }

    private static <S extends Sketch> void mergeInto(
            S into, Path destination, List<Path> sources, SketchFiles.Opener<S> opener, Step<S> step)
            throws IOException {
        try (OpenSketches<S> from = OpenSketches.readOnly(sources, opener)) {
            for (int i = 0; i < sources.size(); i++) {
                S source = from.list().get(i);
                if (source.kind() != into.kind()) {
                    throw new CommandFailure(sources.get(i) + ": a " + source.kind() + " sketch cannot be merged into "
                            + destination + ", a " + into.kind() + " sketch");
                }
                if (source.hashSeed() != into.hashSeed()) {
                    throw new CommandFailure(sources.get(i) + ": hash seed " + source.hashSeed() + " differs from "
                            + destination + "'s " + into.hashSeed() + "; only sketches of one seed merge");
                }
            }
            for (int i = 0; i < sources.size(); i++) {
                try {
                    step.merge(into, from.list().get(i));
                } catch (IllegalArgumentException e) {
                    throw new CommandFailure(
                            sources.get(i) + ": cannot be merged into " + destination + ": " + e.getMessage());
                }
            }
        }
    }
}
