package io.mapsketch.memory;

import static java.lang.foreign.ValueLayout.ADDRESS;
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
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.Set;

/**
 * The Linux system calls behind sketch files' writer locks and block reservations, as
 * {@code java.lang.foreign} downcalls: {@code open(2)}, {@code close(2)}, {@code statx(2)},
 * {@code fcntl(2)} with open-file-description locks ({@code F_OFD_SETLK}) and {@code fallocate(2)}.
 * Every call captures {@code errno}; a failure is an {@link IOException} naming the file, the call
 * and the errno ({@link Errno}).
 *
 * <p>The constants and struct layouts are those of Linux on x86-64 and AArch64, the platforms
 * {@link #load()} accepts. The handles are made once, those of writers' calls on first use (a reader
 * needs only {@code open}, {@code statx} and {@code close}); a call costs a few hundred nanoseconds.
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
    /** {@code struct flock} of 64-bit Linux: type, whence, start, length, pid. */
    private static final StructLayout FLOCK = MemoryLayout.structLayout(
            JAVA_SHORT.withName("l_type"),
            JAVA_SHORT.withName("l_whence"),
            MemoryLayout.paddingLayout(4),
            JAVA_LONG.withName("l_start"),
            JAVA_LONG.withName("l_len"),
            JAVA_INT.withName("l_pid"),
            MemoryLayout.paddingLayout(4));

    private static final Set<String> ARCHITECTURES = Set.of("amd64", "x86_64", "aarch64");
    private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));

    private final MethodHandle open;
    private final MethodHandle close;
    private final MethodHandle statx;
    private final Charset pathEncoding;

    private NativeFiles() {
        Linker linker = Linker.nativeLinker();
        SymbolLookup libc = linker.defaultLookup();
        Linker.Option errno = Linker.Option.captureCallState("errno");
        open = downcall(linker, libc, "open", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT), errno);
        close = downcall(linker, libc, "close", FunctionDescriptor.of(JAVA_INT, JAVA_INT), errno);
        statx = downcall(
                linker,
                libc,
                "statx",
                FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, ADDRESS),
                errno);
        // Locks and block reservations are for writers: their handles are made on first use.
        symbol(libc, "fcntl");
        symbol(libc, "fallocate");
        pathEncoding = Charset.forName(System.getProperty("sun.jnu.encoding", "UTF-8"), StandardCharsets.UTF_8);
    }

    /** A downcall: a restricted method, which needs this module to have native access (README, "Using it"). */
    @SuppressWarnings("restricted")
    private static MethodHandle downcall(
            Linker linker, SymbolLookup libc, String name, FunctionDescriptor type, Linker.Option... options) {
        return linker.downcallHandle(symbol(libc, name), type, options);
    }

    private static MemorySegment symbol(SymbolLookup libc, String name) {
        return libc.find(name)
                .orElseThrow(() -> new UnsupportedOperationException("the C library has no " + name + "()"));
    }

    /** A downcall made when a writer first needs it (a reader never does). */
    private static MethodHandle writerDowncall(String name, FunctionDescriptor type, Linker.Option... options) {
        Linker linker = Linker.nativeLinker();
        Linker.Option[] all = Arrays.copyOf(options, options.length + 1);
        all[options.length] = Linker.Option.captureCallState("errno");
        return downcall(linker, linker.defaultLookup(), name, type, all);
    }

    /** Lazy holder: {@code fcntl(2)}, for writer locks. */
    private static final class Fcntl {
        static final MethodHandle HANDLE = writerDowncall(
                "fcntl",
                FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS),
                Linker.Option.firstVariadicArg(2));
    }

    /** Lazy holder: {@code fallocate(2)}, for the blocks of a new file. */
    private static final class Fallocate {
        static final MethodHandle HANDLE =
                writerDowncall("fallocate", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG));
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
        if (!os.equals("Linux") || !ARCHITECTURES.contains(arch)) {
            throw new UnsupportedOperationException(
                    "the operating system is " + os + " on " + arch + ", not Linux on x86-64 or AArch64");
        }
        if (!Files.isDirectory(Path.of("/proc/self/fd"))) {
            throw new UnsupportedOperationException("/proc/self/fd is missing (is /proc mounted?)");
        }
        return new NativeFiles();
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
                int fd = (int) open.invokeExact(state, path, flags);
                if (fd >= 0) {
                    return fd;
                }
                int errno = errno(state);
                if (errno != Errno.EINTR) {
                    throw failure(file, "open(2)", errno);
                }
            }
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new AssertionError(e);
        }
    }

    /** Closes a descriptor (once: Linux releases it even when close reports an error). */
    void close(int fd, Path file) throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(CALL_STATE);
            if ((int) close.invokeExact(state, fd) != 0) {
                throw failure(file, "close(2)", errno(state));
            }
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new AssertionError(e);
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
            while ((int) statx.invokeExact(state, directory, name, flags, STATX_TYPE_INO_SIZE_BLOCKS, buffer) != 0) {
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
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new AssertionError(e);
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
            MemorySegment lock = arena.allocate(FLOCK);
            lock.set(JAVA_SHORT, FLOCK.byteOffset(MemoryLayout.PathElement.groupElement("l_type")), type.code);
            lock.set(JAVA_LONG, FLOCK.byteOffset(MemoryLayout.PathElement.groupElement("l_start")), start);
            lock.set(JAVA_LONG, FLOCK.byteOffset(MemoryLayout.PathElement.groupElement("l_len")), length);
            while ((int) Fcntl.HANDLE.invokeExact(state, fd, F_OFD_SETLK, lock) != 0) {
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
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new AssertionError(e);
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
            while ((int) Fallocate.HANDLE.invokeExact(state, fd, 0, 0L, length) != 0) {
                int errno = errno(state);
                if (errno != Errno.EINTR) {
                    return errno;
                }
            }
            return 0;
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new AssertionError(e);
        }
    }

    private static int errno(MemorySegment state) {
        return (int) ERRNO.get(state, 0L);
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
