package io.mapsketch.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * {@code mapsketch demo}: builds every kind of sketch as real files in a temporary directory and prints
 * what was measured next to what the formulas say (membership, frequency, distinct counts, sketch
 * tables, similarity: one class each), has a second JVM open one of the files, lists the files and prints
 * {@code mapsketch info} of one of them; then removes the directory, unless asked to keep it. Seeded:
 * the same figures on every run.
 */
final class Demo {

    private final PrintWriter out;

    Demo(PrintWriter out) {
        this.out = out;
    }

    /** Runs the demo; {@code keep} keeps its directory, which is otherwise removed even if the demo fails. */
    int run(boolean keep) throws IOException {
        Path dir = Files.createTempDirectory("mapsketch-demo-");
        try {
            show(dir);
        } finally {
            out.println();
            if (keep) {
                out.println("kept " + dir);
            } else {
                deleteTree(dir);
                out.println("removed " + dir + " (--keep keeps it)");
            }
            out.flush();
        }
        return 0;
    }

    private void show(Path dir) throws IOException {
        out.println("mapsketch demo: real sketch files in " + dir);
        out.println();
        out.flush();
        MembershipDemo membership = new MembershipDemo(out);
        Path classic = membership.classicBloom(dir.resolve("members.bloom"));
        membership.blockedBloom(dir.resolve("members.bbf"));
        membership.countingBloom(dir.resolve("members.cbf"));
        membership.cuckoo(dir.resolve("members.cf"));
        membership.scalableBloom(dir.resolve("members.sbf"));
        secondJvm(classic);
        out.flush();
        Path events = dir.resolve("events.topk");
        new FrequencyDemo(out).countMin(events);
        out.flush();
        new CardinalityDemo(out).hyperLogLog(dir);
        out.flush();
        TableDemo tables = new TableDemo(out);
        tables.visitorsPerPage(dir);
        tables.seenPerUser(dir);
        tables.playsPerUser(dir);
        out.flush();
        SimilarityDemo similarity = new SimilarityDemo(out);
        similarity.minHash(dir.resolve("pages.mh"));
        similarity.simHash(dir.resolve("docs.sh"));
        out.println();
        out.println("files:");
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.sorted().toList()) {
                boolean directory = Files.isDirectory(file);
                out.printf(
                        Locale.ROOT,
                        "  %-18s %,10d bytes%s%n",
                        file.getFileName() + (directory ? "/" : ""),
                        directory ? treeSize(file) : Files.size(file),
                        !directory
                                ? ""
                                : file.getFileName().toString().equals(TableDemo.DAYS)
                                        ? " (30 HyperLogLog day tables)"
                                        : " (a scalable filter: a manifest and one file per link)");
            }
        }
        out.println();
        out.println("mapsketch info " + events + ":");
        Info.print(events, false, out);
    }

    static String member(int i) {
        return "user-" + i;
    }

    static String absent(int i) {
        return "visitor-" + i;
    }

    private void secondJvm(Path file) throws IOException {
        List<String> command = new ArrayList<>(List.of(
                ProcessHandle.current().info().command().orElse("java"), "--add-modules", "jdk.incubator.vector"));
        String modulePath = System.getProperty("jdk.module.path");
        if (modulePath != null) {
            command.addAll(List.of(
                    "--enable-native-access=io.mapsketch.memory",
                    "--module-path",
                    modulePath,
                    "--module",
                    "io.mapsketch.cli/" + Main.class.getName()));
        } else {
            command.addAll(List.of(
                    "--enable-native-access=ALL-UNNAMED",
                    "-cp",
                    System.getProperty("java.class.path"),
                    Main.class.getName()));
        }
        command.addAll(List.of("bf", "exists", file.toString(), member(17), absent(17)));
        Process process = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        try {
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IOException("the second JVM did not answer within 60 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for the second JVM", e);
        }
        String answers = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8)
                .strip()
                .replace('\n', ' ');
        out.printf(
                Locale.ROOT,
                "Second JVM (pid %d): mapsketch bf exists %s %s %s  ->  %s   (1 = may contain,"
                        + " 0 = certainly not)%n",
                process.pid(),
                file.getFileName(),
                member(17),
                absent(17),
                answers);
    }

    private static long treeSize(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            long bytes = 0;
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                bytes += Files.size(file);
            }
            return bytes;
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}
