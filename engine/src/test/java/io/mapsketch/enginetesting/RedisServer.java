package io.mapsketch.enginetesting;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * A {@code redis-server} of the machine's own, started for one test class on a free loopback port
 * with persistence off ({@code --save '' --appendonly no}) in a temporary directory, and stopped by
 * {@link #close}. The server is the {@code redis-server} of the PATH. With the environment variable
 * {@code CI} set (as {@code .ci/run} sets it, after installing the server) a missing server fails the
 * test; without it, a test that needs one is skipped with a line that says how to install it.
 */
public final class RedisServer implements AutoCloseable {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(20);

    private final Process process;
    private final int port;

    private RedisServer(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    /**
     * Starts a server in {@code directory} and waits until it answers {@code PING}.
     *
     * @throws IOException if it does not start, or is not on the PATH while {@code CI} is set
     */
    public static RedisServer start(Path directory) throws IOException, InterruptedException {
        if (!onThePath()) {
            if (System.getenv("CI") == null) {
                Assumptions.abort("redis-server is not installed (apt-get install redis-server); skipping");
            }
            throw new IOException("redis-server is not on the PATH, and CI is set: a Redis interop test must run"
                    + " (.ci/run installs redis-server from the OS packages)");
        }
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        }
        Process process = new ProcessBuilder(List.of(
                        "redis-server",
                        "--port",
                        Integer.toString(port),
                        "--bind",
                        "127.0.0.1",
                        "--save",
                        "",
                        "--appendonly",
                        "no",
                        "--dir",
                        directory.toString()))
                .redirectErrorStream(true)
                .redirectOutput(directory.resolve("redis.log").toFile())
                .start();
        RedisServer server = new RedisServer(process, port);
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (true) {
            try (RespClient client = server.client()) {
                if ("PONG".equals(client.command("PING"))) {
                    return server;
                }
            } catch (IOException notYet) {
                if (!process.isAlive() || System.nanoTime() > deadline) {
                    server.close();
                    throw new IOException(
                            "redis-server did not start on port " + port + ": "
                                    + Files.readString(directory.resolve("redis.log")),
                            notYet);
                }
                Thread.sleep(50);
            }
        }
    }

    /** Whether {@code redis-server}, which {@link #start} runs by that name, is in a directory of the PATH. */
    private static boolean onThePath() {
        String path = System.getenv("PATH");
        return path != null
                && Arrays.stream(path.split(File.pathSeparator))
                        .anyMatch(directory ->
                                !directory.isEmpty() && Files.isExecutable(Path.of(directory, "redis-server")));
    }

    /** The loopback port it listens on. */
    public int port() {
        return port;
    }

    /** A new connection to it. */
    public RespClient client() throws IOException {
        return new RespClient(new Socket(InetAddress.getLoopbackAddress(), port));
    }

    /** Stops the server (SIGTERM, then SIGKILL after 10 s) and waits for it to end. */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
