package io.mapsketch.cli;

import io.mapsketch.OpenMode;
import io.mapsketch.Sketch;
import io.mapsketch.SketchBuilder;
import java.io.IOException;
import java.nio.file.Path;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The options every {@code create} verb shares, and the creation itself: the hash seed, stored in
 * the header (the engine's documented default when omitted, so that the same items give the same
 * file), and what to do with an existing file and the new file's permissions ({@link NewFileOptions}).
 */
final class CreateOptions {

    @Option(
            names = "--seed",
            paramLabel = "S",
            defaultValue = "" + SketchBuilder.DEFAULT_SEED,
            description = "Hash seed stored in the file; sketches merge only with sketches of the same seed"
                    + " (default: ${DEFAULT-VALUE}).")
    private long seed;

    @Mixin
    private NewFileOptions newFile;

    /** Creates the sketch {@code builder} describes at {@code file}, seeded, and closes it. */
    <S extends Sketch> void create(Path file, SketchBuilder<?, S> builder) throws IOException {
        builder.seed(seed).create(file, OpenMode.EXCLUSIVE, newFile.options()).close();
    }
}
