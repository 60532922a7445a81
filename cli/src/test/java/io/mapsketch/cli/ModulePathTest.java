package io.mapsketch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mapsketch.engine.BlockedBloomFilter;
import io.mapsketch.kernels.BitSetKernels;
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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.agrona.DirectBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The command as the launcher runs it: a child JVM with the CLI and its dependencies on the module path
 * (so the module descriptor's {@code requires} and {@code opens} are what make it work), the Vector API
 * module added, and the terminal property off.
 */
class ModulePathTest {

    @TempDir
    Path dir;

    private record Result(int status, String out, String err) {
    }

    private static String modulePath() {
        return Stream.of(Main.class, BlockedBloomFilter.class, SketchRegion.class, BitSetKernels.class,
                DirectBuffer.class, CommandLine.class).map(ModulePathTest::location).distinct()
                .collect(Collectors.joining(File.pathSeparator));
    }

    private static String location(Class<?> type) {
        try {
            return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private Result run(String stdin, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElseThrow(),
                "-Xshare:auto", "--add-modules", "jdk.incubator.vector", "-D" + Main.TERMINAL_PROPERTY + "=false",
                "--module-path", modulePath(), "--module", "io.mapsketch.cli/" + Main.class.getName()));
        command.addAll(List.of(args));
        Path in = Files.writeString(dir.resolve("stdin"), stdin);
        Path out = dir.resolve("stdout");
        Path err = dir.resolve("stderr");
        Process process = new ProcessBuilder(command).redirectInput(in.toFile()).redirectOutput(out.toFile())
                .redirectError(err.toFile()).start();
        if (!process.waitFor(90, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("the command did not finish in 90 s; stderr:\n" + Files.readString(err));
        }
        return new Result(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }

    @Test
    void addsStandardInputAndReportsAFaultInOneLine() throws Exception {
        String file = dir.resolve("smoke.bf").toString();
        assertEquals(0, InProcess.run("bf", "create", file, "--capacity", "1000", "--error-rate", "0.01").status());
        Result added = run("alice\nbob\n", "bf", "add", file);
        assertEquals(0, added.status(), added.err());
        assertEquals(List.of("1", "1", "0"), InProcess.run("bf", "exists", file, "alice", "bob", "carol").lines());
        Result missing = run("", "bf", "exists", dir.resolve("missing").toString(), "x");
        assertEquals(1, missing.status());
        List<String> errors = missing.err().lines().filter(line -> !line.startsWith("WARNING: Using incubator"))
                .toList();
        assertEquals(List.of("mapsketch: " + dir.resolve("missing") + ": no such file"), errors);
    }

    @Test
    void demoMeasuresTheSeedFiguresAndASecondJvmFindsTheKeys() throws Exception {
        Result demo = run("", "demo");
        assertEquals(0, demo.status(), demo.err());
        String text = demo.out();
        assertTrue(text.contains("95,851 bits (11.7 KB), k = 7, 9.6 bits per item"), text);
        assertTrue(text.contains("added   10,000 items; false negatives: 0"), text);
        Matcher measured = Pattern.compile("FPR at capacity\\s+measured ([0-9.]+)%").matcher(text);
        assertTrue(measured.find(), text);
        assertEquals(1.0, Double.parseDouble(measured.group(1)), 0.1, "classic filter at capacity, in percent");
        assertTrue(text.contains("formula 15.75%"), text);
        assertTrue(text.contains("10.1 bits per item"), text);
        assertTrue(text.contains("kept items found 5,000 of 5,000"), text);
        assertTrue(text.contains("user-17 visitor-17  ->  1 0"), text);
        assertTrue(text.contains("Count-Min, eps 0.001, delta 0.01: 2,719 x 5 counters (54,400 bytes;"), text);
        assertTrue(text.contains("bound eps x N = 50;"), text);
        assertTrue(text.contains("keys beyond the bound 0"), text);
        assertTrue(text.contains("top 5 by sketch (Top-K, k = 100):  item-1 "), text);
        Matcher distinct = Pattern.compile("p = 14 \\(16,384 bytes, 0.81% standard error\\): 200,000 distinct in"
                + " 300,000 adds, estimate ([0-9,]+)").matcher(text);
        assertTrue(distinct.find(), text);
        assertEquals(200_000, Double.parseDouble(distinct.group(1).replace(",", "")), 3 * 0.0081 * 200_000);
        Matcher union = Pattern.compile("union estimate ([0-9,]+) \\(truth 100,000\\)").matcher(text);
        assertTrue(union.find(), text);
        assertEquals(100_000, Double.parseDouble(union.group(1).replace(",", "")), 3 * 0.0081 * 100_000);
        assertTrue(text.matches("(?s).*\nmapsketch info \\S+events\\.topk:\n.*\nkind: +TOP_K\n.*\nk: +100\n.*"
                + "\nwidth: +2719\n.*"), text);
    }
}
