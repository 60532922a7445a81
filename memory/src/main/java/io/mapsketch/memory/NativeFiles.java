package io.mapsketch.memory;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The Linux system calls behind sketch files' writer locks and block reservations, as one
 * {@code java.lang.foreign} downcall of the C library's {@code syscall(2)}: {@code openat(2)},
 * {@code close(2)}, {@code statx(2)}, {@code fcntl(2)} with open-file-description locks
 * ({@code F_OFD_SETLK}) and {@code fallocate(2)}. Every call captures {@code errno}; a failure is an
 * {@link IOException} naming the file, the call and the errno ({@link Errno}).
 *
 * <p>The constants, system call numbers and struct layouts are those of Linux on x86-64 and AArch64,
 * the platforms {@link #load()} accepts. One downcall serves every call because each downcall shape
 * costs a single command's start-up several milliseconds of classes made at run time
 * ({@code docs/cli.md}, "Start-up of a single command"); a call costs a few hundred nanoseconds.
 */
final class NativeFiles {

    private static final int O_RDONLY = 0;
    private static final int O_RDWR = 2;
    private static final int O_NOCTTY = 0x100;
    private static final int O_NONBLOCK = 0x800;
    private static final int O_CLOEXEC = 0x80000;
    private static final int AT_FDCWD = -100;
    private static final int AT_EMPTY_PATH = 0x1000;
    private static final int STATX_TYPE_INO_SIZE_BLOCKS = 0x1 | 0x100 | 0x200 | 0x400;
    private static final int F_OFD_SETLK = 37;
    private static final short F_RDLCK = 0;
    private static final short F_WRLCK = 1;
    private static final short F_UNLCK = 2;

    /** {@code struct statx}: the same on every Linux architecture. */
    private static final long STATX_SIZE = 256;

    private static final long STX_MODE = 28;
    private static final long STX_INO = 32;
    private static final long STX_SIZE = 40;
    private static final long STX_BLOCKS = 48;
    private static final long STX_DEV_MAJOR = 136;
    private static final long STX_DEV_MINOR = 140;
    /** {@code struct flock} of 64-bit Linux: short type, short whence, 4 bytes of padding, start, length, pid. */
    private static final long FLOCK_SIZE = 32;

    private static final long L_TYPE = 0;
    private static final long L_START = 8;
    private static final long L_LEN = 16;

    private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final long ERRNO = CALL_STATE.byteOffset(MemoryLayout.PathElement.groupElement("errno"));
    /** {@code long syscall(long number, ...)}, given the number and six arguments (unused ones 0). */
    private static final FunctionDescriptor SYSCALL = FunctionDescriptor.of(
            JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG);

    private final MethodHandle syscall;
    private final SystemCalls numbers;
    private final Charset pathEncoding;

    /** The system call numbers of one architecture. */
    private enum SystemCalls {
        X86_64(257, 3, 332, 72, 285),
        AARCH64(56, 57, 291, 25, 47);

        final long openat;
        final long close;
        final long statx;
        final long fcntl;
        final long fallocate;

        SystemCalls(long openat, long close, long statx, long fcntl, long fallocate) {
            this.openat = openat;
            this.close = close;
            this.statx = statx;
            this.fcntl = fcntl;
            this.fallocate = fallocate;
        }

        static SystemCalls of(String arch) {
            return switch (arch) {
                case "amd64", "x86_64" -> X86_64;
                case "aarch64" -> AARCH64;
                default -> null;
            };
        }
    }

    @SuppressWarnings("restricted") // a downcall needs this module to have native access (README, "Using it")
    private NativeFiles(SystemCalls numbers) {
        Linker linker = Linker.nativeLinker();
        MemorySegment symbol = linker.defaultLookup()
                .find("syscall")
                .orElseThrow(() -> new UnsupportedOperationException("the C library has no syscall()"));
        syscall = linker.downcallHandle(
                symbol, SYSCALL, Linker.Option.captureCallState("errno"), Linker.Option.firstVariadicArg(1));
        this.numbers = numbers;
        pathEncoding = Charset.forName(System.getProperty("sun.jnu.encoding", "UTF-8"), StandardCharsets.UTF_8);
    }

    /**
     * Makes the downcall handles, or says why they cannot be made here.
     *
     * @return the calls
     * @throws UnsupportedOperationException naming the reason: not Linux on x86-64 or AArch64, no
     *     {@code /proc/self/fd}, or a call missing from the C library
     * @throws IllegalCallerException if this module is denied native access
     */
    static NativeFiles load() {
        String os = System.getProperty("os.name", "");
        String arch = System.getProperty("os.arch", "");
        SystemCalls numbers = SystemCalls.of(arch);
        if (!os.equals("Linux") || numbers == null) {
            throw new UnsupportedOperationException(
                    "the operating system is " + os + " on " + arch + ", not Linux on x86-64 or AArch64");
        }
        if (!Files.isDirectory(Path.of("/proc/self/fd"))) {
            throw new UnsupportedOperationException("/proc/self/fd is missing (is /proc mounted?)");
        }
        return new NativeFiles(numbers);
    }

    /** One system call: its result, or -1 with {@code errno} in {@code state}. */
    private long call(MemorySegment state, long number, long a, long b, long c, long d, long e) {
        try {
            return (long) syscall.invokeExact(state, number, a, b, c, d, e, 0L);
        } catch (RuntimeException | Error fault) {
            throw fault;
        } catch (Throwable impossible) {
            throw new AssertionError(impossible);
        }
    }

    /**
     * Opens a file without blocking (a FIFO or device opens at once) and without becoming its
     * controlling terminal; the descriptor is closed on exec.
     *
     * @return the descriptor
     * @throws NoSuchFileException if there is no such file
     * @throws AccessDeniedException if permission is denied
     * @throws FileSystemException naming the errno otherwise
     */
    int open(Path file, boolean writable) throws IOException {
        int flags = (writable ? O_RDWR : O_RDONLY) | O_CLOEXEC | O_NONBLOCK | O_NOCTTY;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(CALL_STATE);
            MemorySegment path = arena.allocateFrom(file.toString(), pathEncoding);
            while (true) {
                long fd = call(state, numbers.openat, AT_FDCWD, path.address(), flags, 0, 0);
                if (fd >= 0) {
                    return (int) fd;
                }
                int errno = errno(state);
                if (errno != Errno.EINTR) {
                    throw failure(file, "open(2)", errno);
                }
            }
        }
    }

    /** Closes a descriptor (once: Linux releases it even when close reports an error). */
    void close(int fd, Path file) throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(CALL_STATE);
            if (call(state, numbers.close, fd, 0, 0, 0, 0) != 0) {
                throw failure(file, "close(2)", errno(state));
            }
        }
    }

    /** The status of an open descriptor. */
    FileStatus status(int fd, Path file) throws IOException {
        return statx(fd, "", AT_EMPTY_PATH, file);
    }

    /** The status of what a path names now, following symbolic links, without opening it. */
    FileStatus status(Path file) throws IOException {
        return statx(AT_FDCWD, file.toString(), 0, file);
    }

    private FileStatus statx(int directory, String path, int flags, Path file) throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(CALL_STATE);
            MemorySegment name = arena.allocateFrom(path, pathEncoding);
            MemorySegment buffer = arena.allocate(STATX_SIZE, 8);
            while (call(
                            state,
                            numbers.statx,
                            directory,
                            name.address(),
                            flags,
                            STATX_TYPE_INO_SIZE_BLOCKS,
                            buffer.address())
                    != 0) {
                int errno = errno(state);
                if (errno != Errno.EINTR) {
                    throw failure(file, "statx(2)", errno);
                }
            }
            FileIdentity identity = new FileIdentity(
                    buffer.get(JAVA_INT, STX_DEV_MAJOR),
                    buffer.get(JAVA_INT, STX_DEV_MINOR),
                    buffer.get(JAVA_LONG, STX_INO));
            return new FileStatus(
                    FileStatus.Type.ofMode(Short.toUnsignedInt(buffer.get(JAVA_SHORT, STX_MODE))),
                    identity,
                    buffer.get(JAVA_LONG, STX_SIZE),
                    512 * buffer.get(JAVA_LONG, STX_BLOCKS));
        }
    }

    /**
     * Takes, converts or releases an open-file-description lock on {@code [start, start + length)}
     * without waiting: shared, exclusive, or (with {@code type} {@link LockType#NONE}) none.
     *
     * @return {@code false} if another open file description holds a conflicting lock
     * @throws FileFault {@code LOCKED}, naming the errno, if the lock cannot be taken for another reason
     */
    boolean setLock(int fd, Path file, LockType type, long start, long length) throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(CALL_STATE);
            MemorySegment lock = arena.allocate(FLOCK_SIZE, 8);
            lock.set(JAVA_SHORT, L_TYPE, type.code);
            lock.set(JAVA_LONG, L_START, start);
            lock.set(JAVA_LONG, L_LEN, length);
            while (call(state, numbers.fcntl, fd, F_OFD_SETLK, lock.address(), 0, 0) != 0) {
                int errno = errno(state);
                if (errno == Errno.EAGAIN || errno == Errno.EACCES) {
                    return false;
                }
                if (errno != Errno.EINTR) {
                    throw new FileFault(
                            FileFault.Reason.LOCKED,
                            file,
                            "fcntl(2) F_OFD_SETLK " + type + " of bytes "
                                    + start + " to " + (start + length - 1) + " failed: " + Errno.describe(errno)
                                    + (errno == Errno.EINVAL
                                            ? "; the kernel may be older than Linux 3.15, which added"
                                                    + " open file description locks"
                                            : ""));
                }
            }
            return true;
        }
    }

    /**
     * Allocates every block of {@code [0, length)} that is not allocated yet (mode 0: contents and
     * length unchanged).
     *
     * @return 0, or the errno of the failure
     */
    int allocate(int fd, long length) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(CALL_STATE);
            while (call(state, numbers.fallocate, fd, 0, 0, length, 0) != 0) {
                int errno = errno(state);
                if (errno != Errno.EINTR) {
                    return errno;
                }
            }
            return 0;
        }
    }

    private static int errno(MemorySegment state) {
        return state.get(JAVA_INT, ERRNO);
    }

    /** The exception Java's own file API throws for the errno, naming the file, the call and the errno. */
    static IOException failure(Path file, String call, int errno) {
        String reason = call + " failed: " + Errno.describe(errno);
        return switch (errno) {
            case Errno.ENOENT -> new NoSuchFileException(file.toString(), null, reason);
            case Errno.EACCES, Errno.EPERM -> new AccessDeniedException(file.toString(), null, reason);
            default -> new FileSystemException(file.toString(), null, reason);
        };
    }

    /** The kinds of lock {@link #setLock} sets. */
    enum LockType {
        SHARED(F_RDLCK),
        EXCLUSIVE(F_WRLCK),
        NONE(F_UNLCK);

        private final short code;

        LockType(short code) {
            this.code = code;
        }

        @Override
        public String toString() {
            return name().toLowerCase(Locale.ROOT);
        }
    }
}
