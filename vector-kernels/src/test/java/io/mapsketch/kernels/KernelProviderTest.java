package io.mapsketch.kernels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mapsketch.kernelsclient.ModulePathMain;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The provider: which implementation it picks, in this JVM and in fresh JVMs started with and
 * without the incubator module and the forcing property.
 */
class KernelProviderTest {

    private static final String MODULE_FLAG = "--add-modules=" + KernelProvider.VECTOR_MODULE;

    private static boolean modulePresent() {
        return ModuleLayer.boot().findModule(KernelProvider.VECTOR_MODULE).isPresent();
    }

    @Test
    void choiceMatchesWhetherThisJvmHasTheModule() {
        String flag = System.getProperty("mapsketch.test.vectorFlag");
        if (flag != null) {
            assertEquals(
                    flag.contains(KernelProvider.VECTOR_MODULE),
                    modulePresent(),
                    "the test run's JVM flag '" + flag + "' and the boot layer disagree");
        }
        assertEquals(modulePresent(), KernelProvider.vector().isPresent());
        int bits = KernelProvider.vector().map(KernelSet::vectorBitSize).orElse(0);
        KernelImplementation expected = modulePresent() && bits >= KernelProvider.MIN_AUTO_VECTOR_BITS
                ? KernelImplementation.VECTOR
                : KernelImplementation.SCALAR;
        String forced = System.getProperty(Kernels.IMPLEMENTATION_PROPERTY);
        if (forced != null) {
            expected =
                    KernelProvider.decide(forced, modulePresent(), bits, false).implementation();
        }
        assertEquals(expected, Kernels.implementation());
        assertEquals(expected == KernelImplementation.VECTOR ? bits : 0, Kernels.vectorBitSize());
        System.out.println("kernels in this test JVM: " + Kernels.implementation() + " " + Kernels.vectorBitSize());
    }

    @Test
    void decisionCoversEveryCase() {
        assertDecision(KernelImplementation.VECTOR, Level.DEBUG, "512-bit", null, true, 512);
        assertDecision(KernelImplementation.VECTOR, Level.DEBUG, "256-bit", "auto", true, 256);
        assertDecision(KernelImplementation.SCALAR, Level.DEBUG, "need 256", null, true, 128);
        assertDecision(
                KernelImplementation.SCALAR, Level.WARNING, "--add-modules jdk.incubator.vector", null, false, 0);
        assertDecision(KernelImplementation.SCALAR, Level.DEBUG, "forced", "scalar", true, 512);
        assertDecision(KernelImplementation.SCALAR, Level.DEBUG, "forced", " Scalar ", false, 0);
        assertDecision(KernelImplementation.VECTOR, Level.DEBUG, "forced", "vector", true, 128);
        assertDecision(
                KernelImplementation.SCALAR, Level.WARNING, "--add-modules jdk.incubator.vector", "vector", false, 0);
        assertDecision(
                KernelImplementation.VECTOR, Level.WARNING, "ignored -Dmapsketch.kernels=simd", "simd", true, 512);
        assertEquals(
                KernelImplementation.SCALAR,
                KernelProvider.decide(null, true, 512, true).implementation());
    }

    private static void assertDecision(
            KernelImplementation implementation,
            Level level,
            String text,
            String forced,
            boolean modulePresent,
            int bits) {
        KernelProvider.Decision decision = KernelProvider.decide(forced, modulePresent, bits, false);
        assertEquals(implementation, decision.implementation(), decision.message());
        assertEquals(level, decision.level(), decision.message());
        assertTrue(decision.message().contains(text), decision.message());
        assertTrue(decision.message().startsWith("mapsketch kernels: "), decision.message());
        assertEquals(-1, decision.message().indexOf('\n'), "one line");
    }

    @Test
    void freshJvmWithoutTheModuleRunsScalarAndSaysWhatToPass() throws Exception {
        Child child = runChild(List.of());
        assertEquals("SCALAR 0", child.stdout());
        assertTrue(child.notice().contains("pass --add-modules jdk.incubator.vector"), child.stderr());
    }

    @Test
    void forcedPropertyChoosesTheImplementationInFreshJvms() throws Exception {
        Child scalar = runChild(List.of(MODULE_FLAG, "-D" + Kernels.IMPLEMENTATION_PROPERTY + "=scalar"));
        assertEquals("SCALAR 0", scalar.stdout());
        assertTrue(scalar.notice().contains("forced"), scalar.stderr());
        Child vector = runChild(List.of(
                MODULE_FLAG,
                "-D" + Kernels.IMPLEMENTATION_PROPERTY + "=vector",
                "-D" + Kernels.VECTOR_BITS_PROPERTY + "=128"));
        assertEquals("VECTOR 128", vector.stdout());
        Child withoutModule = runChild(List.of("-D" + Kernels.IMPLEMENTATION_PROPERTY + "=vector"));
        assertEquals("SCALAR 0", withoutModule.stdout());
        assertTrue(withoutModule.notice().contains("is not present"), withoutModule.stderr());
    }

    @Test
    void namedModuleRunsOnTheModulePathWithAndWithoutTheIncubatorModule() throws Exception {
        String modules = Path.of(KernelSet.class
                        .getProtectionDomain()
                        .getCodeSource()
                        .getLocation()
                        .toURI())
                .toString();
        String client = Path.of(ModulePathMain.class
                        .getProtectionDomain()
                        .getCodeSource()
                        .getLocation()
                        .toURI())
                .toString();
        List<String> base = List.of("--module-path", modules, "--add-modules", "io.mapsketch.kernels");
        Child scalar = runChild(base, client, ModulePathMain.class.getName());
        List<String> withVector = new ArrayList<>(base);
        withVector.add(MODULE_FLAG);
        Child vector = runChild(withVector, client, ModulePathMain.class.getName());
        String[] s = scalar.stdout().split(" ");
        String[] v = vector.stdout().split(" ");
        assertEquals("SCALAR", s[0]);
        assertEquals("io.mapsketch.kernels", s[1], "the kernels must run as the named module");
        assertTrue(
                v[0].equals("VECTOR") || vector.notice().contains("vectors are"),
                "with the module the named module should choose the Vector API: " + vector.stderr());
        assertEquals(s[2], v[2], "both implementations must give the same popcount");
    }

    /**
     * A logging configuration that prints the kernels' logger at every level, {@code DEBUG} included, on
     * standard error.
     */
    private static Path debugLogging() throws IOException {
        Path config = Files.createTempFile("kernels-logging", ".properties");
        config.toFile().deleteOnExit();
        return Files.writeString(
                config,
                "handlers = java.util.logging.ConsoleHandler\n"
                        + "java.util.logging.ConsoleHandler.level = ALL\n"
                        + "io.mapsketch.kernels.level = ALL\n");
    }

    /** What a child JVM printed; {@code notice} is the provider's one log message. */
    private record Child(String stdout, String stderr, String notice) {}

    private static Child runChild(List<String> jvmArgs) throws IOException, InterruptedException {
        return runChild(jvmArgs, System.getProperty("java.class.path"), KernelsMain.class.getName());
    }

    private static Child runChild(List<String> jvmArgs, String classPath, String mainClass)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xshare:auto");
        command.add("-Djava.util.logging.config.file=" + debugLogging());
        command.addAll(jvmArgs);
        command.add("-cp");
        command.add(classPath);
        command.add(mainClass);
        Process process = new ProcessBuilder(command).start();
        process.getOutputStream().close();
        byte[] out = process.getInputStream().readAllBytes();
        byte[] err = process.getErrorStream().readAllBytes();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "child JVM did not finish: " + command);
        String stdout = new String(out, StandardCharsets.UTF_8).strip();
        String stderr = new String(err, StandardCharsets.UTF_8);
        assertEquals(0, process.exitValue(), () -> "child JVM failed: " + command + "\n" + stdout + "\n" + stderr);
        List<String> notices = stderr.lines()
                .filter(line -> line.contains("mapsketch kernels:"))
                .toList();
        assertEquals(1, notices.size(), () -> "expected one notice from the provider, got: " + stderr);
        return new Child(stdout, stderr, notices.get(0));
    }
}
