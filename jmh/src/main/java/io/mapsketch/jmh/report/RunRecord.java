package io.mapsketch.jmh.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * What a report must say about the run it comes from: the machine, the profile and its JMH options,
 * the command, the commit and when it ran. Written to {@code run.json} in the results folder when a
 * run starts and completed when it ends, so that a report re-rendered later on another machine still
 * names the machine that measured.
 *
 * @param profile the profile's name, e.g. {@code quick}
 * @param command the command that produced the results
 * @param jmhOptions the JMH command-line options of the profile
 * @param commit the source revision benchmarked
 * @param suites the suites this run measured; results of others in the folder come from earlier runs
 * @param cpuModel the CPU's model name
 * @param cores the processors available to the JVM
 * @param memoryBytes the machine's physical memory
 * @param os the operating system's name, version and architecture
 * @param started when the run started (ISO-8601 instant)
 * @param finished when it ended (ISO-8601 instant), or {@code null} while it runs
 */
public record RunRecord(
        String profile,
        String command,
        String jmhOptions,
        String commit,
        List<String> suites,
        String cpuModel,
        int cores,
        long memoryBytes,
        String os,
        String started,
        String finished) {

    /** The name of the record in a results folder. */
    public static final String FILE_NAME = "run.json";

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /**
     * Starts a record or completes one: {@code start FOLDER PROFILE COMMAND JMH_OPTIONS COMMIT SUITES} (suites separated by
     * commas) writes
     * {@code FOLDER/run.json} describing this machine; {@code finish FOLDER} sets its end time.
     *
     * @param args as above
     * @throws IOException if the record cannot be written or read
     */
    public static void main(String[] args) throws IOException {
        if (args.length == 7 && args[0].equals("start")) {
            Path folder = Path.of(args[1]);
            Files.createDirectories(folder);
            describeThisMachine(args[2], args[3], args[4], args[5], List.of(args[6].split(",")))
                    .write(folder);
        } else if (args.length == 2 && args[0].equals("finish")) {
            Path folder = Path.of(args[1]);
            RunRecord started = read(folder);
            new RunRecord(
                            started.profile,
                            started.command,
                            started.jmhOptions,
                            started.commit,
                            started.suites,
                            started.cpuModel,
                            started.cores,
                            started.memoryBytes,
                            started.os,
                            started.started,
                            Instant.now().toString())
                    .write(folder);
        } else {
            throw new IllegalArgumentException("usage: RunRecord start FOLDER PROFILE COMMAND JMH_OPTIONS COMMIT SUITES"
                    + " | RunRecord finish FOLDER; got " + List.of(args));
        }
    }

    private static RunRecord describeThisMachine(
            String profile, String command, String jmhOptions, String commit, List<String> suites) throws IOException {
        long memory = ManagementFactory.getPlatformMXBean(com.sun.management.OperatingSystemMXBean.class)
                .getTotalMemorySize();
        return new RunRecord(
                profile,
                command,
                jmhOptions,
                commit,
                suites,
                readCpuModel(),
                Runtime.getRuntime().availableProcessors(),
                memory,
                System.getProperty("os.name")
                        + ' '
                        + System.getProperty("os.version")
                        + ' '
                        + System.getProperty("os.arch"),
                Instant.now().toString(),
                null);
    }

    /** The first "model name" line of the Linux CPU description, or the architecture elsewhere. */
    private static String readCpuModel() throws IOException {
        Path cpuinfo = Path.of("/proc/cpuinfo");
        if (Files.isReadable(cpuinfo)) {
            for (String line : Files.readAllLines(cpuinfo)) {
                if (line.startsWith("model name")) {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
        }
        return "unknown " + System.getProperty("os.arch") + " CPU";
    }

    /**
     * Reads the record of a results folder.
     *
     * @param folder the results folder
     * @return its record
     * @throws UncheckedIOException if there is none or it cannot be read
     */
    public static RunRecord read(Path folder) {
        try {
            return JSON.readValue(folder.resolve(FILE_NAME).toFile(), RunRecord.class);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + folder.resolve(FILE_NAME), e);
        }
    }

    private void write(Path folder) throws IOException {
        JSON.writeValue(folder.resolve(FILE_NAME).toFile(), this);
    }

    /**
     * How long the run took.
     *
     * @return the time from start to finish, or {@code null} if the run has not finished
     */
    public Duration elapsed() {
        return finished == null ? null : Duration.between(Instant.parse(started), Instant.parse(finished));
    }
}
