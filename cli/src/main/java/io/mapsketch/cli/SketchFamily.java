package io.mapsketch.cli;

import io.mapsketch.OpenMode;
import io.mapsketch.Sketch;
import io.mapsketch.SketchKind;
import java.io.IOException;
import java.nio.file.Path;

/**
 * One family of sketches as the command knows it. A family is a picocli command (its verbs:
 * {@code mapsketch bf ...}) listed among {@link MapsketchCommand}'s subcommands, and through this
 * interface it also tells {@code mapsketch merge} how it reads its files and {@code mapsketch bf info}
 * which files are its own ({@code info} itself asks the engine what a file holds: {@link Info}). Adding a family to the command is one class implementing this and one entry in that list.
 */
interface SketchFamily {

    /**
     * Tells whether this family reads files of a kind.
     *
     * @param kind the kind in a file's header
     * @return {@code true} if {@link #open} takes such files
     */
    boolean reads(SketchKind kind);

    /**
     * Opens a file as this family's verbs open theirs, for {@code mapsketch merge} to merge it into a
     * sketch of this family: a file of a kind this family does not {@link #reads read} is refused as
     * those verbs refuse it, naming the file and its kind.
     *
     * @param file the file
     * @param mode how to open it
     * @return the open sketch
     * @throws IOException if it cannot be opened as a sketch of this family
     */
    Sketch open(Path file, OpenMode mode) throws IOException;

    /**
     * Says why this family's sketches do not merge, and what to do instead; asked only when they are not
     * {@link io.mapsketch.Mergeable}.
     *
     * @return the reason, without the file's name
     */
    default String mergeRefusal() {
        return "sketches of this kind do not merge";
    }

    /**
     * Merges one source into a destination of this family for {@code mapsketch merge}: through
     * {@link io.mapsketch.Mergeable} unless the family's own merge verb does more.
     *
     * @param into the destination, {@link io.mapsketch.Mergeable}
     * @param from the source, opened by {@link #open}
     * @throws io.mapsketch.IncompatibleSketchException if the engine refuses the source
     */
    default void mergeStep(Sketch into, Sketch from) {
        ((io.mapsketch.Mergeable<?>) into).mergeSketch(from);
    }

    /**
     * Refuses, before anything is merged, a source that {@link #mergeStep} would refuse for its shape.
     *
     * @param into the destination, {@link io.mapsketch.Mergeable}
     * @param from the source, opened by {@link #open}
     * @throws IllegalArgumentException naming what differs
     */
    default void mergeCheck(Sketch into, Sketch from) {
        ((io.mapsketch.Mergeable<?>) into).requireMergeableSketch(from);
    }
}
