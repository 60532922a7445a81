package io.mapsketch.cli;

import io.mapsketch.SketchKind;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * One family of sketches as the command knows it. A family is a picocli command (its verbs:
 * {@code mapsketch bf ...}) listed among {@link MapsketchCommand}'s subcommands, and through this
 * interface it also tells {@code mapsketch info} what its files hold and does {@code mapsketch merge}
 * for them. Adding a family to the command is one class implementing this and one entry in that list.
 */
interface SketchFamily {

    /**
     * Tells whether this family reads files of a kind.
     *
     * @param kind the kind in a file's header
     * @return {@code true} if {@link #describe} and {@link #merge} take such files
     */
    boolean reads(SketchKind kind);

    /**
     * Adds the family's own figures for {@code file} (sizes, error, estimates) to the facts that
     * {@code info} prints, in the order to print them.
     *
     * @param file a file of a kind this family {@link #reads}
     * @param facts the facts so far, name to value
     * @throws IOException if the file cannot be opened read-only
     */
    void describe(Path file, Map<String, Object> facts) throws IOException;

    /**
     * Merges {@code sources} into {@code destination}, which this family {@link #reads}.
     *
     * @param destination the file to merge into, opened as a shared writer
     * @param sources the files merged into it, unchanged
     * @throws IOException if a file cannot be opened
     * @throws CommandFailure if a source cannot be merged into the destination
     */
    void merge(Path destination, List<Path> sources) throws IOException;
}
