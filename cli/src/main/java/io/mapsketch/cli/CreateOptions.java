package io.mapsketch.cli;

import io.mapsketch.CreateOption;
import io.mapsketch.OpenMode;
import io.mapsketch.Sketch;
import io.mapsketch.SketchBuilder;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * The options every {@code create} verb shares, and the creation itself: the hash seed, stored in
 * the header (the engine's documented default when omitted, so that the same items give the same
 * file), {@code --force}, without which an existing file is refused (and with which one that other
 * processes write is still refused, unless {@code --replace-in-use} is also given), and
 * {@code --owner-only} for permissions 0600 instead of 0644.
 */
final class CreateOptions {

    @Option(
            names = "--seed",
            paramLabel = "S",
            defaultValue = "" + SketchBuilder.DEFAULT_SEED,
            description = "Hash seed stored in the file; sketches merge only with sketches of the same seed"
                    + " (default: ${DEFAULT-VALUE}).")
    private long seed;

    @Option(
            names = "--force",
            description = "Replace FILE if it exists (without it, an existing FILE is refused);"
                    + " refused while other processes write FILE.")
    private boolean force;

    @Option(
            names = "--replace-in-use",
            description = "With --force, replace FILE even while other processes"
                    + " write it; their later updates are lost, and each fails at its next force or close.")
    private boolean replaceInUse;

    @Option(
            names = "--owner-only",
            description =
                    "Make FILE readable and writable by its owner only (0600; default"
                            + " 0644). Advisable for sketches of personal data: a filter tells its readers what was probably added.")
    private boolean ownerOnly;

    /** Creates the sketch {@code builder} describes at {@code file}, seeded, and closes it. */
    <S extends Sketch> void create(Path file, SketchBuilder<?, S> builder) throws IOException {
        List<CreateOption> options = new ArrayList<>();
        if (replaceInUse && !force) {
            throw new IllegalArgumentException("--replace-in-use needs --force: it only says how far --force may go");
        }
        if (force) {
            options.add(replaceInUse ? CreateOption.REPLACE_IN_USE : CreateOption.OVERWRITE_EXISTING);
        }
        if (ownerOnly) {
            options.add(CreateOption.OWNER_ONLY);
        }
        builder.seed(seed)
                .create(file, OpenMode.EXCLUSIVE, options.toArray(CreateOption[]::new))
                .close();
    }
}
