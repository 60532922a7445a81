package io.mapsketch.cli;

import io.mapsketch.Mergeable;
import io.mapsketch.OpenMode;
import io.mapsketch.Sketch;
import io.mapsketch.TableFullException;
import io.mapsketch.internal.SketchFacts;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * How files merge, as PFMERGE does: the destination opens as a shared writer (adds by other processes go
 * on meanwhile) and every source read-only; a destination that does not exist is created empty in the
 * first source's shape and seed. All sources must open and have one kind and seed, the destination's,
 * before anything is merged. The destination may be among the sources when merging is idempotent (Bloom
 * filters, HyperLogLog, MinHash: it is then skipped, merging it changes nothing); for sums (Count-Min,
 * Top-K, counting Bloom) it is refused, since its counts would be added again. Every source's shape is
 * checked against the destination's ({@link Mergeable#requireMergeable}) before anything is merged, so a
 * mis-shaped source leaves the destination as it was. Then each source is merged in turn (tables: all of
 * them together, each key written once); a limit only the merged state reaches (a Count-Min total weight, a
 * table's room) stops the merge with one line naming the files and what was merged before it.
 */
final class Merging {

    /** Checks, before anything is merged, that a step would take one open source into the open destination. */
    @FunctionalInterface
    interface Check<S extends Sketch> {
        /**
         * Refuses {@code from} if its shape keeps {@code into} from merging it.
         *
         * @throws IllegalArgumentException naming what differs
         */
        void check(S into, S from);
    }

    /** Merges one open source into the open destination. */
    @FunctionalInterface
    interface Step<S extends Sketch> {
        /**
         * Merges {@code from} into {@code into}, both of one kind.
         *
         * @param into the destination, writable
         * @param from the source, unchanged
         * @param source the source's index among the SRC files
         * @throws IllegalArgumentException if their parameters or seeds differ
         */
        void merge(S into, S from, int source);
    }

    private Merging() {}

    /**
     * {@code mapsketch merge}: the family is that of the kind the destination's header names (the first
     * source's if the destination does not exist), the files open as that family's verbs open theirs,
     * and each merges through {@link Mergeable}; a kind that does not merge is refused with its family's
     * reason.
     */
    static void merge(Path destination, List<Path> sources, List<SketchFamily> families) throws IOException {
        Path shapeFile = Files.exists(destination) ? destination : sources.getFirst();
        SketchFamily family;
        try (Sketch shape = Sketch.open(shapeFile, OpenMode.READ_ONLY)) {
            family = families.stream()
                    .filter(f -> f.reads(shape.kind()))
                    .findFirst()
                    .orElseThrow(() -> new CommandFailure(shapeFile + ": " + shape.kind() + " sketches cannot be"
                            + " merged by this version of the command"));
            if (!(shape instanceof Mergeable<?>)) {
                throw new CommandFailure(shapeFile + ": " + family.mergeRefusal());
            }
        }
        merge(
                destination,
                sources,
                family::open,
                family::mergeCheck,
                (into, from, source) -> family.mergeStep(into, from));
    }

    /** A merge verb whose step is an engine merge that {@link Mergeable#requireMergeable} checks. */
    static <S extends Sketch> void merge(
            Path destination, List<Path> sources, SketchFiles.Opener<S> opener, Step<S> step) throws IOException {
        merge(destination, sources, opener, (into, from) -> ((Mergeable<?>) into).requireMergeableSketch(from), step);
    }

    /**
     * A merge verb: the destination and the sources open with {@code opener} (a missing destination is
     * created first, in the first source's shape), every source is checked by {@code check}, then merged by
     * {@code step}, one after the other.
     */
    static <S extends Sketch> void merge(
            Path destination, List<Path> sources, SketchFiles.Opener<S> opener, Check<S> check, Step<S> step)
            throws IOException {
        merge(destination, sources, opener, check, (into, from, files, indices) -> {
            for (int i = 0; i < files.size(); i++) {
                try {
                    step.merge(into, from.get(i), indices.get(i));
                } catch (IllegalArgumentException | TableFullException e) {
                    throw new CommandFailure(files.get(i) + ": cannot be merged into " + destination + ": "
                            + e.getMessage() + mergedBefore(files.subList(0, i)));
                }
            }
        });
    }

    /** Merges the open sources into the open destination together, as {@link Mergeable#mergeAll} does. */
    @FunctionalInterface
    interface Together<S extends Sketch> {
        /**
         * Merges {@code from} into {@code into}, both of one kind, their shapes checked.
         *
         * @param indices each source's index among the SRC files
         */
        void merge(S into, List<S> from, List<Integer> indices);
    }

    /**
     * A merge verb of tables: as {@link #merge(Path, List, SketchFiles.Opener, Step)}, the sources merged into
     * the destination together ({@link Mergeable#mergeAll}), each key written once.
     */
    static <S extends Sketch> void mergeTogether(Path destination, List<Path> sources, SketchFiles.Opener<S> opener)
            throws IOException {
        mergeTogether(
                destination, sources, opener, (into, from, indices) -> ((Mergeable<?>) into).mergeAllSketches(from));
    }

    /** As {@link #mergeTogether(Path, List, SketchFiles.Opener)}, the sources merged by {@code together}. */
    static <S extends Sketch> void mergeTogether(
            Path destination, List<Path> sources, SketchFiles.Opener<S> opener, Together<S> together)
            throws IOException {
        merge(
                destination,
                sources,
                opener,
                (into, from) -> ((Mergeable<?>) into).requireMergeableSketch(from),
                (into, from, files, indices) -> {
                    try {
                        together.merge(into, from, indices);
                    } catch (IllegalArgumentException e) {
                        throw new CommandFailure(
                                destination + ": cannot merge " + describe(files) + ": " + e.getMessage());
                    } catch (TableFullException e) {
                        throw new CommandFailure(destination + ": cannot merge " + describe(files) + ": "
                                + e.getMessage() + "; the keys before it were merged");
                    }
                });
    }

    /** Merges the open sources into the open destination; {@code indices} are the sources' among the SRC files. */
    @FunctionalInterface
    private interface Steps<S extends Sketch> {
        void merge(S into, List<S> from, List<Path> files, List<Integer> indices);
    }

    private static String describe(List<Path> files) {
        return files.size() == 1
                ? files.getFirst().toString()
                : files.getFirst() + " and " + (files.size() - 1) + " more";
    }

    private static <S extends Sketch> void merge(
            Path destination, List<Path> sources, SketchFiles.Opener<S> opener, Check<S> check, Steps<S> steps)
            throws IOException {
        boolean exists = Files.exists(destination);
        List<Path> others = new ArrayList<>(sources.size());
        List<Integer> indices = new ArrayList<>(sources.size());
        Path itself = null;
        for (int i = 0; i < sources.size(); i++) {
            Path source = sources.get(i);
            if (exists && Files.exists(source) && Files.isSameFile(source, destination)) {
                itself = source;
            } else {
                others.add(source);
                indices.add(i);
            }
        }
        try (OpenSketches<S> from = OpenSketches.readOnly(others, opener)) {
            if (!others.isEmpty()) {
                requireKindAndSeed(others.getFirst(), from.list().getFirst(), others, from.list());
            }
            try (S into = exists ? opener.open(destination, OpenMode.SHARED) : created(destination, from, opener)) {
                if (itself != null && !(into instanceof Mergeable<?> merged && merged.mergeIsIdempotent())) {
                    throw new CommandFailure(itself + ": is the destination itself; merging a " + into.kind()
                            + " sketch into itself would count its items twice");
                }
                requireKindAndSeed(destination, into, others, from.list());
                requireMergeable(destination, into, others, from.list(), check);
                steps.merge(into, from.list(), others, indices);
            }
        }
    }

    /** The destination, created empty in the first source's shape (or as another process just created it). */
    private static <S extends Sketch> S created(Path destination, OpenSketches<S> from, SketchFiles.Opener<S> opener)
            throws IOException {
        try {
            SketchFacts.createEmptyLike(from.list().getFirst(), destination, OpenMode.SHARED)
                    .close();
        } catch (FileAlreadyExistsException raced) {
            // Another process created it first: merge into that one.
        }
        return opener.open(destination, OpenMode.SHARED);
    }

    /** Refuses a source the destination's merge would refuse (its shape), before anything is merged. */
    private static <S extends Sketch> void requireMergeable(
            Path destination, S into, List<Path> files, List<S> sketches, Check<S> check) {
        for (int i = 0; i < files.size(); i++) {
            try {
                check.check(into, sketches.get(i));
            } catch (IllegalArgumentException e) {
                throw new CommandFailure(files.get(i) + ": cannot be merged into " + destination + ": " + e.getMessage()
                        + "; nothing was merged");
            }
        }
    }

    /** What a refusal part-way says of the sources merged before it. */
    private static String mergedBefore(List<Path> merged) {
        return merged.isEmpty()
                ? "; nothing was merged"
                : "; " + merged.size() + " source" + (merged.size() == 1 ? "" : "s") + " before it "
                        + (merged.size() == 1 ? "was" : "were") + " merged: "
                        + String.join(", ", merged.stream().map(Path::toString).toList());
    }

    /** Refuses a source of another kind or seed than {@code reference} before anything is merged. */
    private static void requireKindAndSeed(
            Path referenceFile, Sketch reference, List<Path> files, List<? extends Sketch> sketches) {
        for (int i = 0; i < files.size(); i++) {
            Sketch source = sketches.get(i);
            if (source.kind() != reference.kind()) {
                throw new CommandFailure(files.get(i) + ": a " + source.kind() + " sketch cannot be merged into "
                        + referenceFile + ", a " + reference.kind() + " sketch");
            }
            if (source.hashSeed() != reference.hashSeed()) {
                throw new CommandFailure(files.get(i) + ": hash seed " + source.hashSeed() + " differs from "
                        + referenceFile + "'s " + reference.hashSeed() + "; only sketches of one seed merge");
            }
        }
    }
}
