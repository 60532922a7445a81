package io.mapsketch.cli;

import io.mapsketch.kernels.BitSetKernels;
import io.mapsketch.membership.BlockedBloomFilter;
import io.mapsketch.memory.SketchRegion;
import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import picocli.CommandLine;

/**
 * Runs the command as the launcher does: a child JVM with the CLI and its dependencies on the module
 * path (so the module descriptor's {@code requires} and {@code opens} are what make it work), the
 * Vector API module added, native access granted to the memory module, and the terminal property off.
 */
final class ChildCommand {

    /** What one run left: its exit status and everything it wrote. */
    record Result(int status, String out, String err) {

        /** The output's lines. */
        List<String> lines() {
            return out.lines().toList();
        }
    }

    private ChildCommand() {}

    /** The CLI and its dependencies, as this test JVM loaded them (class folders or jars). */
    static String modulePath() {
        return Stream.of(
                        Main.class,
                        BlockedBloomFilter.class,
                        SketchRegion.class,
                        BitSetKernels.class,
                        CommandLine.class)
                .map(ChildCommand::location)
                .distinct()
                .collect(Collectors.joining(File.pathSeparator));
    }

    private static String location(Class<?> type) {
        try {
            return Path.of(type.getProtectionDomain()
                            .getCodeSource()
                            .getLocation()
                            .toURI())
                    .toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The command line of {@code mapsketch} without its arguments: the JVM, its flags and the CLI's module. */
    static List<String> launcher() {
        return List.of(
                ProcessHandle.current().info().command().orElseThrow(),
                "-Xshare:auto",
                "--add-modules",
                "jdk.incubator.vector",
                "--enable-native-access=io.mapsketch.memory",
                "-D" + Main.TERMINAL_PROPERTY + "=false",
                "--module-path",
                modulePath(),
                "--module",
                "io.mapsketch.cli/" + Main.class.getName());
    }

    /** Runs {@code mapsketch ARGS} with {@code stdin} as standard input; files of the run go to {@code dir}. */
    static Result run(Path dir, String stdin, String... args) throws IOException, InterruptedException {
        return run(dir, stdin.getBytes(StandardCharsets.UTF_8), args);
    }

    /** As {@link #run(Path, String, String...)}, with standard input given as bytes (not necessarily UTF-8). */
    static Result run(Path dir, byte[] stdin, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(launcher());
        command.addAll(List.of(args));
        Path in = Files.write(dir.resolve("stdin"), stdin);
        Path out = dir.resolve("stdout");
        Path err = dir.resolve("stderr");
        Process process = new ProcessBuilder(command)
                .redirectInput(in.toFile())
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        if (!process.waitFor(90, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("the command did not finish in 90 s; stderr:\n" + Files.readString(err));
        }
        return new Result(
                process.exitValue(),
                Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }
}
