package io.mapsketch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The JDK discovery that ./build and ./mapsketch share, run in a real shell. */
class FindJdkScriptTest {

    private static final Path SCRIPT =
            Path.of("..", "scripts", "find-jdk.sh").toAbsolutePath().normalize();

    @TempDir
    Path dir;

    private record Result(int status, String out, String err) {}

    private Result run(String javaHome, String requiredVersion) throws IOException, InterruptedException {
        String script = ". '" + SCRIPT + "'; mapsketch_required_java=" + requiredVersion
                + "; mapsketch_find_jdk && echo \"$MAPSKETCH_JAVA_HOME\"";
        ProcessBuilder builder = new ProcessBuilder("bash", "-c", script)
                .redirectOutput(dir.resolve("out").toFile())
                .redirectError(dir.resolve("err").toFile());
        builder.environment().put("JAVA_HOME", javaHome);
        Process process = builder.start();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "script finished");
        return new Result(
                process.exitValue(),
                Files.readString(dir.resolve("out"), StandardCharsets.UTF_8).strip(),
                Files.readString(dir.resolve("err"), StandardCharsets.UTF_8).strip());
    }

    @Test
    void findsThisJdkWhenJavaHomePointsAtIt() throws Exception {
        Path thisJdk = Path.of(System.getProperty("java.home"));
        Result result = run(thisJdk.toString(), "25");
        assertEquals(0, result.status(), result.err());
        assertEquals(thisJdk.toRealPath(), Path.of(result.out()).toRealPath());
    }

    @Test
    void looksBeyondAJavaHomeThatIsNotAJdk() throws Exception {
        Result result = run(dir.toString(), "25");
        assertEquals(0, result.status(), result.err());
        assertTrue(Files.isExecutable(Path.of(result.out(), "bin", "java")), result.out());
    }

    @Test
    void readsTheFeatureVersionFromTheReleaseFile() throws Exception {
        Path fake = dir.resolve("jdk-999");
        Files.createDirectories(fake.resolve("bin"));
        for (String tool : new String[] {"java", "javac"}) {
            Path script = fake.resolve("bin").resolve(tool);
            Files.writeString(script, "#!/bin/sh\nexit 1\n");
            assertTrue(script.toFile().setExecutable(true));
        }
        Files.writeString(fake.resolve("release"), "IMPLEMENTOR=\"x\"\nJAVA_VERSION=\"999.0.1\"\n");
        Result result = run(fake.toString(), "999");
        assertEquals(new Result(0, fake.toString(), ""), result);
    }

    @Test
    void saysWhatToInstallWhenNoJdkIsNewEnough() throws Exception {
        Result result = run(dir.toString(), "999");
        assertEquals(1, result.status());
        assertTrue(result.err().startsWith("mapsketch needs a JDK 999 or newer and found none"), result.err());
        assertTrue(result.err().contains("install one"), result.err());
    }
}
