package io.mapsketch.memory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The processes that hold a sketch file's writer lock now, as Linux lists them in {@code /proc/locks}
 * and, for open-file-description locks (whose entries there carry no pid), in each process's
 * {@code /proc/PID/fdinfo}. For messages and inspection only: the locks themselves decide who may
 * write.
 *
 * <p>What it cannot name: a holder in another pid namespace or on another host (a network file
 * system), which {@code /proc/locks} does not list, and the pid of an open-file-description lock
 * held by a process whose {@code fdinfo} this process may not read (another user's, unless root),
 * which is listed with an unknown pid.
 *
 * <p>Cost: one read of {@code /proc/locks}; when it lists open-file-description locks on the file, a
 * read of every visible process's descriptor table (milliseconds to tens of milliseconds).
 */
public final class WriterLockHolders {

    private WriterLockHolders() {}

    /**
     * One holder of the writer lock.
     *
     * @param pid its process id, or -1 if this process cannot see it
     * @param mode {@link RegionMode#SHARED} for a shared lock, {@link RegionMode#EXCLUSIVE} for an
     *     exclusive one
     */
    public record Holder(long pid, RegionMode mode) {

        @Override
        public String toString() {
            return (pid < 0 ? "a process this one cannot see" : "pid " + pid) + " (" + mode + ")";
        }
    }

    /**
     * Lists the holders of a file's writer lock.
     *
     * @param file the sketch file
     * @return the holders, none if no writer has it open; empty if the operating system does not
     *     list file locks (not Linux)
     * @throws java.nio.file.NoSuchFileException if there is no such file
     * @throws IOException if the file or the lock list cannot be read
     */
    public static Optional<List<Holder>> of(Path file) throws IOException {
        Path table = Path.of("/proc/locks");
        if (!Files.isReadable(table) || !(FileAccess.get().status(file).identity() instanceof FileIdentity identity)) {
            return Optional.empty();
        }
        List<Holder> holders = new ArrayList<>();
        List<RegionMode> unnamed = new ArrayList<>();
        for (String line : Files.readAllLines(table)) {
            LockLine lock = LockLine.parse(line);
            if (lock != null && lock.isWriterLockOf(identity)) {
                if (lock.pid > 0) {
                    holders.add(new Holder(lock.pid, lock.mode));
                } else {
                    unnamed.add(lock.mode);
                }
            }
        }
        if (!unnamed.isEmpty()) {
            for (Holder named : descriptorHolders(identity)) {
                if (unnamed.remove(named.mode())) {
                    holders.add(named);
                }
            }
            unnamed.forEach(mode -> holders.add(new Holder(-1, mode)));
        }
        return Optional.of(List.copyOf(holders));
    }

    /**
     * Says who holds a file's writer lock, for a message.
     *
     * @param file the sketch file
     * @return for example {@code "pid 4711 (SHARED), pid 4712 (SHARED)"}, or what is known if the
     *     holders cannot be listed
     */
    static String describe(Path file) {
        try {
            return of(file).map(holders -> holders.isEmpty()
                            ? "no process this one can see"
                            : holders.stream().map(Holder::toString).collect(Collectors.joining(", ")))
                    .orElse("this operating system does not list their pids");
        } catch (IOException | UncheckedIOException e) {
            return "their pids cannot be read: " + e.getMessage();
        }
    }

    /** The open-file-description locks on the writer range, by the processes whose descriptors hold them. */
    private static List<Holder> descriptorHolders(FileIdentity identity) throws IOException {
        List<Holder> holders = new ArrayList<>();
        try (DirectoryStream<Path> processes = Files.newDirectoryStream(
                Path.of("/proc"), path -> path.getFileName().toString().chars().allMatch(Character::isDigit))) {
            for (Path process : processes) {
                long pid = Long.parseLong(process.getFileName().toString());
                try (DirectoryStream<Path> descriptors = Files.newDirectoryStream(process.resolve("fdinfo"))) {
                    for (Path descriptor : descriptors) {
                        for (String line : Files.readAllLines(descriptor)) {
                            LockLine lock = line.startsWith("lock:") ? LockLine.parse(line.substring(5)) : null;
                            Holder holder = lock == null ? null : new Holder(pid, lock.mode);
                            if (lock != null
                                    && lock.pid <= 0
                                    && lock.isWriterLockOf(identity)
                                    && !holders.contains(holder)) {
                                holders.add(holder);
                            }
                        }
                    }
                } catch (IOException | UncheckedIOException invisibleOrGone) {
                    // Another user's process (without root), or one that exited meanwhile.
                }
            }
        }
        return holders;
    }

    /**
     * One line of {@code /proc/locks}: {@code ID: CLASS ADVISORY TYPE PID MAJOR:MINOR:INODE START END}
     * (a waiter's line has {@code ->} after the id and is skipped).
     */
    private record LockLine(long pid, RegionMode mode, long major, long minor, long inode, long start) {

        static LockLine parse(String line) {
            String[] fields = line.trim().split("\\s+");
            if (fields.length < 8 || fields[1].equals("->")) {
                return null;
            }
            String[] device = fields[5].split(":");
            if (device.length != 3) {
                return null;
            }
            try {
                RegionMode mode = switch (fields[3]) {
                    case "READ" -> RegionMode.SHARED;
                    case "WRITE" -> RegionMode.EXCLUSIVE;
                    default -> null;
                };
                return mode == null
                        ? null
                        : new LockLine(
                                Long.parseLong(fields[4]),
                                mode,
                                Long.parseLong(device[0], 16),
                                Long.parseLong(device[1], 16),
                                Long.parseLong(device[2]),
                                Long.parseLong(fields[6]));
            } catch (NumberFormatException e) {
                return null;
            }
        }

        boolean isWriterLockOf(FileIdentity file) {
            return start == 0 && major == file.deviceMajor() && minor == file.deviceMinor() && inode == file.inode();
        }
    }
}
