package io.mapsketch;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.mapsketch.enginetesting.ReliabilityScenarios;
import io.mapsketch.enginetesting.SharedSketchFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The long run of the reliability scenarios, for a person to start (not part of the CI suite): for
 * the minutes given in the system property {@code mapsketch.soak.minutes}, alternates killed-writer
 * rounds on one set of five files (every round verified against everything acknowledged so far)
 * with many-writers rounds on fresh files (four JVMs x two threads, payloads compared with one
 * thread's), then prints a summary. Any loss fails the run at once, naming the round. Run with
 * {@code scripts/soak MINUTES}.
 */
class SoakTest {

    @TempDir
    Path dir;

    @Test
    void soak() throws Exception {
        String minutes = System.getProperty("mapsketch.soak.minutes", "");
        assumeTrue(!minutes.isBlank(), "a soak runs only when mapsketch.soak.minutes is set (scripts/soak MINUTES)");
        long deadline =
                System.nanoTime() + Duration.ofMinutes(Long.parseLong(minutes)).toNanos();
        long started = System.nanoTime();
        Path killed = Files.createDirectory(dir.resolve("killed"));
        SharedSketchFiles.create(killed, OpenMode.EXCLUSIVE).close();
        SplittableRandom random = new SplittableRandom(Long.getLong("mapsketch.soak.seed", 2026));
        long acknowledged = -1;
        long kills = 0;
        long manyRounds = 0;
        long manyKeys = 0;
        long processes = 0;
        while (System.nanoTime() < deadline) {
            for (int i = 0; i < 10 && System.nanoTime() < deadline; i++) {
                OpenMode mode = kills % 2 == 0 ? OpenMode.SHARED : OpenMode.EXCLUSIVE;
                acknowledged =
                        ReliabilityScenarios.killRound(killed, acknowledged, mode, random, "after kill " + kills);
                kills++;
                processes++;
            }
            Path round = Files.createDirectory(dir.resolve("many-" + manyRounds));
            manyKeys += ReliabilityScenarios.manyWritersRound(round);
            manyRounds++;
            processes += ReliabilityScenarios.CHILDREN;
            for (String name : new String[] {"classic", "blocked", "counting", "countmin", "hll"}) {
                Files.delete(round.resolve(name + ".sketch"));
            }
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        long killedKeys = (acknowledged + 1) * SharedSketchFiles.BATCH * 5;
        System.out.printf(
                Locale.ROOT,
                "soak: %.0f s, %d child JVMs; %d SIGKILLs of writers, %d acknowledged batches"
                        + " (%,d keys x 5 sketch kinds) verified after every kill; %d many-writer rounds (4 JVMs x 2 threads,"
                        + " %,d key adds) with 5 payloads each byte-identical to one thread's; %d files verified; lost: 0%n",
                seconds,
                processes,
                kills,
                acknowledged + 1,
                killedKeys / 5,
                manyRounds,
                manyKeys,
                5 * (kills + manyRounds));
    }
}
