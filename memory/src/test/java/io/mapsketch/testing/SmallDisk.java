package io.mapsketch.testing;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A tmpfs of a few bytes mounted for a test, to fill a disk without filling the machine's. Mounting
 * needs root (or a container allowed to mount); where it is refused the test is skipped, saying so.
 * Shared with other modules' tests through this module's test jar.
 */
public final class SmallDisk implements AutoCloseable {

    private final Path mountPoint;

    private SmallDisk(Path mountPoint) {
        this.mountPoint = mountPoint;
    }

    /**
     * Mounts a tmpfs of {@code bytes} at a new directory {@code name} in {@code dir}, or skips the test.
     *
     * @param dir where the mount point is created
     * @param name the mount point's name
     * @param bytes the file system's size
     * @return the mounted disk; {@link #close()} unmounts it
     * @throws Exception if the mount point cannot be created or the command cannot run
     */
    public static SmallDisk mount(Path dir, String name, long bytes) throws Exception {
        Path mountPoint = Files.createDirectory(dir.resolve(name));
        int status = run("mount", "-t", "tmpfs", "-o", "size=" + bytes, "tmpfs", mountPoint.toString());
        assumeTrue(
                status == 0, "mounting a tmpfs of " + bytes + " bytes was refused (exit " + status + "): needs root");
        return new SmallDisk(mountPoint);
    }

    /**
     * Returns where the disk is mounted.
     *
     * @return the mount point
     */
    public Path path() {
        return mountPoint;
    }

    /**
     * Writes a sparse copy of a file: its first 4096 bytes (a sketch file's header page), then a hole up
     * to its length, as {@code cp --sparse=always} or a restore leaves a file of zeros.
     *
     * @param source the file to copy
     * @param copy where the copy goes
     * @return the copy
     * @throws IOException if a file cannot be read or written
     */
    public static Path sparseCopy(Path source, Path copy) throws IOException {
        byte[] header = new byte[4096];
        System.arraycopy(Files.readAllBytes(source), 0, header, 0, header.length);
        try (RandomAccessFile file = new RandomAccessFile(copy.toFile(), "rw")) {
            file.write(header);
            file.setLength(Files.size(source));
        }
        return copy;
    }

    /**
     * Returns the bytes of storage allocated to a file, from {@code stat -c %b} (512-byte blocks).
     *
     * @param file the file
     * @return its allocated bytes
     * @throws Exception if {@code stat} cannot run
     */
    public static long allocatedBytes(Path file) throws Exception {
        Process stat = new ProcessBuilder("stat", "-c", "%b", file.toString())
                .redirectErrorStream(true)
                .start();
        String out = new String(stat.getInputStream().readAllBytes()).trim();
        assumeTrue(stat.waitFor(10, TimeUnit.SECONDS) && stat.exitValue() == 0, "stat -c %b failed: " + out);
        return 512 * Long.parseLong(out);
    }

    private static int run(String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        process.getInputStream().readAllBytes();
        return process.waitFor(30, TimeUnit.SECONDS) ? process.exitValue() : -1;
    }

    /** Unmounts the disk. */
    @Override
    public void close() throws IOException {
        try {
            run("umount", mountPoint.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while unmounting " + mountPoint, e);
        }
    }
}
