package io.mapsketch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.spi.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a user's terminal shows: the command run by the launcher's own start-up code
 * ({@code scripts/run-cli.sh}) in a real shell, with the module path of this build, and every byte of
 * its standard output and standard error compared.
 */
class LauncherTest {

    private static final Path SCRIPT =
            Path.of("..", "scripts", "run-cli.sh").toAbsolutePath().normalize();

    private static final String NOTICE = "WARNING: Using incubator modules: jdk.incubator.vector";

    @TempDir
    Path dir;

    private record Result(int status, String out, String err) {}

    /** Runs {@code script} in bash after sourcing the launcher's start-up code, with {@code stdin}; {@code args} are $1, $2, ... */
    private Result shell(String stdin, String script, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("bash", "-c", ". '" + SCRIPT + "'; " + script, "bash"));
        command.addAll(List.of(args));
        Path in = Files.writeString(dir.resolve("stdin"), stdin);
        Path out = dir.resolve("stdout");
        Path err = dir.resolve("stderr");
        Process process = new ProcessBuilder(command)
                .redirectInput(in.toFile())
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        assertTrue(process.waitFor(180, TimeUnit.SECONDS), "the shell finished");
        return new Result(
                process.exitValue(),
                Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }

    /** Runs {@code mapsketch ARGS} as the launcher does, on {@code modulePath}, with the cache {@code cache}. */
    private Result mapsketch(String modulePath, Path cache, String... args) throws IOException, InterruptedException {
        return shell(
                "",
                "mapsketch_run_cli \"$1\" \"$2\" \"$3\" false \"${@:4}\"",
                prepend(System.getProperty("java.home"), modulePath, cache == null ? "" : cache.toString(), args));
    }

    private Result mapsketch(String... args) throws IOException, InterruptedException {
        return mapsketch(ChildCommand.modulePath(), null, args);
    }

    /** The script that runs {@code mapsketch ARGS} as {@link #mapsketch(String...)} does, reading the shell's stdin. */
    private static String launcherOf(String... args) {
        StringBuilder script = new StringBuilder("mapsketch_run_cli '")
                .append(System.getProperty("java.home"))
                .append("' '")
                .append(ChildCommand.modulePath())
                .append("' '' false");
        for (String arg : args) {
            script.append(" '").append(arg).append('\'');
        }
        return script.toString();
    }

    private static String[] prepend(String first, String second, String third, String... rest) {
        List<String> all = new ArrayList<>(List.of(first, second, third));
        all.addAll(List.of(rest));
        return all.toArray(String[]::new);
    }

    private String file(String name) {
        return dir.resolve(name).toString();
    }

    @Test
    void verbsPrintTheirAnswersAndNothingElse() throws Exception {
        assertEquals(
                new Result(0, "", ""),
                mapsketch("bf", "create", file("v.bf"), "--capacity", "1000", "--error-rate", "0.01"));
        Result added = mapsketch("bf", "add", file("v.bf"), "alice", "bob");
        assertEquals(0, added.status(), added.err());
        assertEquals("", added.err());
        assertEquals(new Result(0, "1\n0\n", ""), mapsketch("bf", "exists", file("v.bf"), "alice", "carol"));
        assertEquals(new Result(0, "", ""), mapsketch("hll", "create", file("v.hll"), "--precision", "12"));
        assertEquals(
                new Result(1, "", "mapsketch: " + file("missing.bf") + ": no such file\n"),
                mapsketch("bf", "exists", file("missing.bf"), "x"));
    }

    @Test
    void theVectorModuleIsResolvedAndOnlyItsNoticeIsDropped() throws Exception {
        Result options = shell("", "mapsketch_cli_options false; printf '%s\\n' \"${mapsketch_options[@]}\"");
        assertTrue(options.out().contains("--add-modules\njdk.incubator.vector\n"), options.out());
        assertEquals(
                new Result(0, "Error: something real\n" + NOTICE + "\nmore\n", ""),
                shell(NOTICE + "\nError: something real\n" + NOTICE + "\nmore\n", "mapsketch_drop_incubator_notice"));
        assertEquals(
                new Result(0, "Error: first\n" + NOTICE + "\n", ""),
                shell("Error: first\n" + NOTICE + "\n", "mapsketch_drop_incubator_notice"));
        assertEquals(new Result(0, "no newline", ""), shell("no newline", "mapsketch_drop_incubator_notice"));
    }

    @Test
    void aFewKeysRunWithoutTheVectorModuleAndManyWithIt() throws Exception {
        String kernels = "mapsketch_kernels \"$@\"; echo \"$mapsketch_kernels_chosen\"";
        assertEquals(new Result(0, "scalar\n", ""), shell("", kernels, "bf", "exists", "f.bf", "x"));
        assertEquals(new Result(0, "scalar\n", ""), shell("", kernels, "hll", "add", "f.hll", "a", "b"));
        assertEquals(new Result(0, "vector\n", ""), shell("", kernels, "bf", "exists", "f.bf"), "items from stdin");
        assertEquals(new Result(0, "vector\n", ""), shell("", kernels, "bf", "exists", "f.bf", "--", "x"));
        assertEquals(new Result(0, "vector\n", ""), shell("", kernels, "bf", "create", "f.bf", "x"));
        assertEquals(new Result(0, "vector\n", ""), shell("", kernels, "demo"));
        String[] many = new String[3 + FastVerbs.FEW_KEYS + 1];
        many[0] = "cms";
        many[1] = "query";
        for (int i = 2; i < many.length; i++) {
            many[i] = "k" + i;
        }
        assertEquals(new Result(0, "vector\n", ""), shell("", kernels, many), "more than FEW_KEYS items");
        assertEquals(
                new Result(0, "scalar\n", ""),
                shell("", kernels, java.util.Arrays.copyOf(many, many.length - 1)),
                "FEW_KEYS items");

        Result scalar = shell("", "mapsketch_cli_options false scalar; printf '%s\\n' \"${mapsketch_options[@]}\"");
        assertTrue(!scalar.out().contains("jdk.incubator.vector"), scalar.out());
        assertTrue(scalar.out().contains("--enable-native-access=io.mapsketch.memory\n"), scalar.out());
        assertEquals(
                new Result(0, "cli-scalar.aot\ncli.aot\n", ""),
                shell(
                        "",
                        "mapsketch_cache_path cli scalar; echo \"$mapsketch_cache\";"
                                + " mapsketch_cache_path cli vector; echo \"$mapsketch_cache\""));
        // The answers do not depend on the kernels the launcher chose.
        assertEquals(
                new Result(0, "", ""),
                mapsketch("bf", "create", file("k.bf"), "--capacity", "1000", "--error-rate", "0.01"));
        assertEquals(0, mapsketch("bf", "add", file("k.bf"), "alice").status());
        assertEquals(new Result(0, "1\n0\n", ""), mapsketch("bf", "exists", file("k.bf"), "alice", "carol"));
        assertEquals(new Result(0, "1\n0\n", ""), shell("alice\ncarol\n", launcherOf("bf", "exists", file("k.bf"))));
    }

    @Test
    void usageErrorsAreOneLineNamingTheOptionAsTyped() throws Exception {
        assertEquals(
                new Result(2, "", "mapsketch: --capacity = 0, must be >= 1; see 'mapsketch bf create --help'\n"),
                mapsketch("bf", "create", file("a.bf"), "--capacity", "0", "--error-rate", "0.01"));
        assertEquals(
                new Result(
                        2, "", "mapsketch: --error-rate = 2.0, must be in (0, 1); see 'mapsketch bf create --help'\n"),
                mapsketch("bf", "create", file("a.bf"), "--capacity", "10", "--error-rate", "2"));
        Result slots = mapsketch("minhash", "create", file("a.mh"), "--standard-error", "0");
        assertEquals(2, slots.status());
        assertTrue(slots.err().startsWith("mapsketch: --standard-error = 0.0, must be in "), slots.err());
        assertTrue(slots.err().endsWith("; see 'mapsketch minhash create --help'\n"), slots.err());
        assertEquals(1, slots.err().lines().count(), slots.err());
        Result unknown = mapsketch("frobnicate");
        assertEquals(2, unknown.status());
        assertEquals("mapsketch: Unmatched argument at index 0: 'frobnicate'; see 'mapsketch --help'\n", unknown.err());
        Result help = mapsketch("hll", "create", "--help");
        assertEquals(0, help.status(), help.err());
        assertEquals("", help.err());
        assertTrue(help.out().contains("(10: 3.25%, 14: 0.81%)"), help.out());
        Result version = mapsketch("--version");
        assertEquals(0, version.status(), version.err());
        assertTrue(version.out().matches("mapsketch \\d+\\.\\d+\\.\\d+\\S*\n"), version.out());
        assertEquals("", version.err());
    }

    @Test
    void noHelpTextHasAFormattingWarning() throws Exception {
        PrintStream systemErr = System.err;
        java.io.ByteArrayOutputStream captured = new java.io.ByteArrayOutputStream();
        try (PrintStream capture = new PrintStream(captured, true, StandardCharsets.UTF_8)) {
            System.setErr(capture);
            for (List<String> verb : CommandTest.verbs()) {
                List<String> args = new ArrayList<>(verb);
                args.add("--help");
                StringWriter err = new StringWriter();
                Main.run(
                        args.toArray(String[]::new),
                        new CommandIo(System.in, new PrintWriter(new StringWriter()), new PrintWriter(err), false));
                assertEquals("", err.toString(), verb.toString());
            }
        } finally {
            System.setErr(systemErr);
        }
        assertEquals("", captured.toString(StandardCharsets.UTF_8), "picocli's warnings go to System.err");
    }

    @Test
    void theStartUpCacheIsUsedWhenFreshAndNeverBreaksARun() throws Exception {
        // The cache needs jars: the CLI's classes as its jar, next to its dependencies' jars.
        Path jar = dir.resolve("mapsketch-cli.jar");
        List<String> modulePath =
                new ArrayList<>(List.of(ChildCommand.modulePath().split(File.pathSeparator)));
        String classes = modulePath.remove(0);
        ToolProvider jarTool = ToolProvider.findFirst("jar").orElseThrow();
        assertEquals(0, jarTool.run(System.out, System.err, "--create", "--file", jar.toString(), "-C", classes, "."));
        modulePath.add(0, jar.toString());
        String path = String.join(File.pathSeparator, modulePath);
        assertTrue(modulePath.stream().allMatch(entry -> entry.endsWith(".jar")), path);

        Path cache = dir.resolve("cli.aot");
        Result made = shell(
                "",
                "mapsketch_make_aot_cache \"$1\" \"$2\" \"$3\"",
                System.getProperty("java.home"),
                path,
                cache.toString());
        assertEquals(new Result(0, "", ""), made);
        assertTrue(Files.size(cache) > 1_000_000, "an AOT cache of the training run");
        assertEquals(
                0,
                shell("", "mapsketch_aot_cache_current \"$1\" \"$2\"", path, cache.toString())
                        .status());

        assertEquals(
                new Result(0, "", ""),
                mapsketch(path, cache, "bf", "create", file("c.bf"), "--capacity", "100", "--error-rate", "0.01"));
        Result added = mapsketch(path, cache, "bf", "add", file("c.bf"), "x");
        assertEquals(0, added.status(), added.err());
        assertEquals("", added.err());
        assertEquals(new Result(0, "1\n0\n", ""), mapsketch(path, cache, "bf", "exists", file("c.bf"), "x", "y"));

        // A jar newer than the cache makes it stale: it is not used, and the launcher makes it again.
        Files.setLastModifiedTime(jar, FileTime.from(Instant.now().plusSeconds(60)));
        assertEquals(
                1,
                shell("", "mapsketch_aot_cache_current \"$1\" \"$2\"", path, cache.toString())
                        .status());
        assertEquals(new Result(0, "1\n0\n", ""), mapsketch(path, cache, "bf", "exists", file("c.bf"), "x", "y"));

        // A cache that the JVM cannot read (here: not a cache at all, but newer than the jars) costs nothing.
        Files.writeString(cache, "not a cache");
        Files.setLastModifiedTime(cache, FileTime.from(Instant.now().plusSeconds(120)));
        assertEquals(new Result(0, "1\n0\n", ""), mapsketch(path, cache, "bf", "exists", file("c.bf"), "x", "y"));
        assertEquals(
                new Result(0, "1\n0\n", ""),
                mapsketch(path, dir.resolve("none.aot"), "bf", "exists", file("c.bf"), "x", "y"));
    }
}
