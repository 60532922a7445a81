package io.mapsketch.cli;

import io.mapsketch.engine.Sketch;
import io.mapsketch.engine.SketchBuilder;
import io.mapsketch.memory.AccessMode;
import io.mapsketch.memory.CreateOption;
import java.io.IOException;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * The options every {@code create} verb shares, and the creation itself: the hash seed, stored in
 * the header (the engine's documented default when omitted, so that the same items give the same
 * file), and {@code --force}, without which an existing file is refused.
 */
final class CreateOptions {

    @Option(names = "--seed", paramLabel = "S", defaultValue = "" + SketchBuilder.DEFAULT_SEED,
            description = "Hash seed stored in the file; sketches merge only with sketches of the same seed"
                    + " (default: ${DEFAULT-VALUE}).")
    private long seed;

    @Option(names = "--force", description = "Replace FILE if it exists (without it, an existing FILE is refused).")
    private boolean force;

    /** Creates the sketch {@code builder} describes at {@code file}, seeded, and closes it. */
    <S extends Sketch> void create(Path file, SketchBuilder<?, S> builder) throws IOException {
        CreateOption[] options = force ? new CreateOption[] {CreateOption.OVERWRITE_EXISTING} : new CreateOption[0];
        builder.seed(seed).create(file, AccessMode.EXCLUSIVE, options).close();
    }
}
