package io.mapsketch.cli;

import io.mapsketch.CreateOption;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * The options of every verb that creates a sketch file ({@code create}, {@code import}): {@code --force},
 * without which an existing file is refused (and with which one that other processes write is still
 * refused, unless {@code --replace-in-use} is also given), and {@code --owner-only} for permissions 0600
 * instead of 0644.
 */
final class NewFileOptions {

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

    /**
     * The engine's create options for these flags.
     *
     * @throws IllegalArgumentException if {@code --replace-in-use} is given without {@code --force}
     */
    CreateOption[] options() {
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
        return options.toArray(CreateOption[]::new);
    }
}
