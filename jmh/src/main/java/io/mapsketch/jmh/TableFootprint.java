package io.mapsketch.jmh;

import io.mapsketch.OpenMode;
import io.mapsketch.cardinality.HyperLogLogTable;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The table rows of {@link MemoryFootprint}: a HyperLogLog table of {@value TableBenchmark#KEYS} keys with
 * {@value TableBenchmark#ITEMS} distinct items each (the table of {@link TableBenchmark}), beside the same
 * keys as Redis HyperLogLogs, Redis's answer to one sketch per key: the sum of {@code MEMORY USAGE key
 * SAMPLES 0} of a real {@code redis-server} over {@value #REDIS_KEYS} of those keys, each given its
 * {@value TableBenchmark#ITEMS} items by {@code PFADD}, scaled to all keys. Redis keeps such a key in its
 * sparse encoding; the figure includes its key, value object and dictionary entry. Without
 * {@code redis-server} and {@code redis-cli} on the {@code PATH} the Redis row is left out, with a line on
 * standard error.
 */
final class TableFootprint {

    private static final String QUESTION = "tables";
    private static final int REDIS_KEYS = 10_000;
    private static final long SERVER_START_MILLIS = 10_000;

    private TableFootprint() {}

    /**
     * Measures the table and, where Redis is installed, Redis's keys.
     *
     * @param recorder where the rows go
     * @throws IOException if the table's file cannot be created, measured or deleted, or Redis fails
     */
    static void measure(FootprintRecorder recorder) throws IOException {
        String setting = String.format(
                Locale.ROOT,
                "HyperLogLog p = %d per key, %,d keys x %d distinct items",
                TableBenchmark.PRECISION,
                TableBenchmark.KEYS,
                TableBenchmark.ITEMS);
        recorder.mapsketch(
                QUESTION,
                setting,
                "mapsketch",
                file -> TableBenchmark.filledTable(file, OpenMode.EXCLUSIVE),
                table -> {},
                TableFootprint::used);
        Optional<Path> server = onPath("redis-server");
        Optional<Path> client = onPath("redis-cli");
        if (server.isEmpty() || client.isEmpty()) {
            System.err.println("memory: redis-server or redis-cli is not on the PATH; the Redis table row is left out");
            return;
        }
        long sampled = redisBytes(server.get(), client.get());
        recorder.add(
                QUESTION,
                setting,
                "redis",
                sampled * (TableBenchmark.KEYS / REDIS_KEYS),
                String.format(
                        Locale.ROOT,
                        "MEMORY USAGE summed over %,d keys (%,d bytes), x %d",
                        REDIS_KEYS,
                        sampled,
                        TableBenchmark.KEYS / REDIS_KEYS),
                "sparse encoding; the server's own overhead is not counted");
    }

    /** The note on the table: what its keys use of the file, which is allocated at creation. */
    private static String used(HyperLogLogTable table) {
        HyperLogLogTable.KeyCounts counts = table.keyCounts();
        long used = table.memoryBytes() - table.heapBytes() + table.heapBytesUsed();
        return String.format(
                Locale.ROOT,
                "allocated when created (%,d bytes per key of capacity); used: %,d bytes, %.0f per key (%,d sparse, %,d"
                        + " dense keys)",
                table.heapBytes() / table.capacity(),
                used,
                (double) used / counts.keys(),
                counts.sparse(),
                counts.dense());
    }

    /** Starts a server on a free loopback port, adds the keys, and sums their {@code MEMORY USAGE}. */
    private static long redisBytes(Path server, Path client) throws IOException {
        int port = freePort();
        Process redis = new ProcessBuilder(
                        server.toString(),
                        "--port",
                        Integer.toString(port),
                        "--bind",
                        "127.0.0.1",
                        "--save",
                        "",
                        "--appendonly",
                        "no")
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        try {
            awaitPong(client, port);
            List<String> adds = Stream.iterate(0L, k -> k + 1)
                    .limit(REDIS_KEYS)
                    .map(TableFootprint::pfadd)
                    .toList();
            run(client, port, adds);
            List<String> usages = run(
                    client,
                    port,
                    Stream.iterate(0L, k -> k + 1)
                            .limit(REDIS_KEYS)
                            .map(k -> "MEMORY USAGE " + key(k) + " SAMPLES 0")
                            .toList());
            if (usages.size() != REDIS_KEYS) {
                throw new IOException("redis-cli answered " + usages.size() + " MEMORY USAGE lines of " + REDIS_KEYS);
            }
            return usages.stream().mapToLong(Long::parseLong).sum();
        } finally {
            redis.destroy();
            try {
                redis.waitFor(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static String key(long k) {
        return new String(TablePairs.key(k), StandardCharsets.US_ASCII);
    }

    /** {@code PFADD} of key {@code k}'s items, each as the hexadecimal text of its 8 bytes. */
    private static String pfadd(long k) {
        StringBuilder command = new StringBuilder("PFADD ").append(key(k));
        for (int i = 0; i < TableBenchmark.ITEMS; i++) {
            command.append(' ').append(Long.toHexString(KeyStreams.key(k * TableBenchmark.ITEMS + i)));
        }
        return command.toString();
    }

    private static void awaitPong(Path client, int port) throws IOException {
        long deadline = System.currentTimeMillis() + SERVER_START_MILLIS;
        while (true) {
            List<String> answer = run(client, port, List.of("PING"));
            if (answer.equals(List.of("PONG"))) {
                return;
            }
            if (System.currentTimeMillis() > deadline) {
                throw new IOException("redis-server on port " + port + " did not answer PING within "
                        + SERVER_START_MILLIS + " ms: " + answer);
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while waiting for redis-server", e);
            }
        }
    }

    /** Sends inline commands, one per line, through {@code redis-cli} and returns its answer lines. */
    private static List<String> run(Path client, int port, List<String> commands) throws IOException {
        Process cli = new ProcessBuilder(client.toString(), "-p", Integer.toString(port))
                .redirectErrorStream(true)
                .start();
        Thread writer = Thread.ofVirtual().start(() -> {
            try (BufferedWriter in =
                    new BufferedWriter(new OutputStreamWriter(cli.getOutputStream(), StandardCharsets.US_ASCII))) {
                for (String command : commands) {
                    in.write(command);
                    in.newLine();
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        List<String> lines;
        try (BufferedReader out =
                new BufferedReader(new InputStreamReader(cli.getInputStream(), StandardCharsets.US_ASCII))) {
            lines = out.lines().toList();
        }
        try {
            writer.join();
            cli.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while redis-cli ran", e);
        }
        return lines;
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static Optional<Path> onPath(String program) {
        return Stream.of(System.getenv().getOrDefault("PATH", "").split(":"))
                .filter(folder -> !folder.isEmpty())
                .map(folder -> Path.of(folder, program))
                .filter(Files::isExecutable)
                .findFirst();
    }
}
