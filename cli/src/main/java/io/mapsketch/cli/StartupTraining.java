package io.mapsketch.cli;

import io.mapsketch.kernels.Kernels;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The training run of the launcher's ahead-of-time cache: the classes, linked call sites and profiles
 * the cache keeps are those this run uses. It runs {@code mapsketch demo}, then the verbs that scripts
 * call one at a time ({@link FastVerbs}) and a {@code pipe} on files of its own, in a temporary
 * directory that it removes, and prints nothing. Not a command: the launcher runs it with the
 * command's JVM options when it makes the cache.
 */
public final class StartupTraining {

    private StartupTraining() {}

    /**
     * Runs the training.
     *
     * @param args none
     * @throws IOException if the temporary directory cannot be made or removed
     */
    public static void main(String[] args) throws IOException {
        // The cache of a JVM without the Vector API serves the command lines that Main runs with the scalar
        // kernels forced (FastVerbs.fewKeys): the training forces them too, so that the call sites of that
        // choice are the ones linked in the cache.
        if (ModuleLayer.boot().findModule("jdk.incubator.vector").isEmpty()) {
            System.setProperty(Kernels.IMPLEMENTATION_PROPERTY, "scalar");
        }
        Path dir = Files.createTempDirectory("mapsketch-training");
        try {
            String bloom = dir.resolve("t.bf").toString();
            String counts = dir.resolve("t.cms").toString();
            String distinct = dir.resolve("t.hll").toString();
            List<List<String>> commands = List.of(
                    List.of("demo"),
                    List.of("bf", "create", bloom, "--capacity", "1000", "--error-rate", "0.01"),
                    List.of("bf", "add", bloom, "a", "b"),
                    List.of("bf", "exists", bloom, "a"),
                    List.of("bf", "exists", bloom, "a", "c"),
                    List.of("cf", "create", dir.resolve("t.cf").toString(), "--capacity", "1000"),
                    List.of("cf", "exists", dir.resolve("t.cf").toString(), "a"),
                    List.of("cms", "create", counts, "--epsilon", "0.01", "--delta", "0.01"),
                    List.of("cms", "query", counts, "a"),
                    List.of("hll", "create", distinct, "--precision", "12"),
                    List.of("hll", "add", distinct, "a"),
                    List.of("bf", "exists", dir.resolve("missing.bf").toString(), "a"));
            for (List<String> command : commands) {
                Main.run(command.toArray(String[]::new), quiet(""));
            }
            Main.run(
                    new String[] {"pipe"},
                    quiet("BF.ADD " + bloom + " x\nBF.EXISTS " + bloom + " x\nPFCOUNT " + distinct + "\nCMS.INCRBY "
                            + counts + " a 2\n"));
        } finally {
            try (Stream<Path> files = Files.walk(dir)) {
                for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(file);
                }
            }
        }
    }

    /** Streams that read {@code stdin} and discard what is written. */
    private static CommandIo quiet(String stdin) {
        PrintWriter nowhere = new PrintWriter(OutputStream.nullOutputStream(), false, StandardCharsets.UTF_8);
        return new CommandIo(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)), nowhere, nowhere, false);
    }
}
