package io.mapsketch.memory;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Sketch files through the operating system ({@link NativeFiles}). A path is opened without
 * blocking ({@code O_NONBLOCK}) and the descriptor's own status decides whether it is a regular
 * file (or, where the open itself fails, as it does for a directory opened for writing, the
 * path's), so a FIFO or device swapped in at any moment is refused, never waited on. Writer locks
 * are open-file-description locks on that descriptor, which only its own close releases; the
 * channel that maps the file is opened through {@code /proc/self/fd}, so it is the very file
 * checked.
 */
final class NativeFileAccess extends FileAccess {

    private final NativeFiles calls;

    NativeFileAccess(NativeFiles calls) {
        this.calls = calls;
    }

    @Override
    OpenedFile open(Path file, boolean writable) throws IOException {
        int fd;
        try {
            fd = calls.open(file, writable);
        } catch (NoSuchFileException | AccessDeniedException e) {
            throw e;
        } catch (FileSystemException e) {
            calls.status(file).requireRegularFile(file);
            throw e;
        }
        try {
            FileStatus status = calls.status(fd, file);
            status.requireRegularFile(file);
            return new Descriptor(file, writable, status, fd);
        } catch (IOException | RuntimeException e) {
            try {
                calls.close(fd, file);
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    @Override
    FileStatus status(Path file) throws IOException {
        return calls.status(file);
    }

    /** A file open on a descriptor of the library's own. */
    final class Descriptor extends OpenedFile {

        private final int fd;

        Descriptor(Path path, boolean writable, FileStatus status, int fd) {
            super(path, writable, status);
            this.fd = fd;
        }

        @Override
        FileChannel openChannel() throws IOException {
            Path self = Path.of("/proc/self/fd", Integer.toString(fd));
            return writable
                    ? FileChannel.open(self, StandardOpenOption.READ, StandardOpenOption.WRITE)
                    : FileChannel.open(self, StandardOpenOption.READ);
        }

        @Override
        boolean tryLock(long start, long length, boolean shared) throws IOException {
            return calls.setLock(
                    fd, path, shared ? NativeFiles.LockType.SHARED : NativeFiles.LockType.EXCLUSIVE, start, length);
        }

        @Override
        void unlock(long start, long length) throws IOException {
            calls.setLock(fd, path, NativeFiles.LockType.NONE, start, length);
        }

        @Override
        void reserve(long length) throws IOException {
            int errno = calls.allocate(fd, length);
            if (errno == Errno.ENOSPC || errno == Errno.EDQUOT) {
                long allocated = calls.status(fd, path).allocatedBytes();
                throw new FileFault(
                        FileFault.Reason.STORAGE,
                        path,
                        "only " + allocated + " of its " + length
                                + " bytes have storage (the file has holes, as a sparse copy does) and the rest cannot be reserved:"
                                + " fallocate(2) failed: " + Errno.describe(errno) + "; free space, or copy the file"
                                + " without holes");
            }
            if (errno == Errno.EOPNOTSUPP) {
                long allocated = calls.status(fd, path).allocatedBytes();
                if (allocated < length) {
                    Notices.warn(FileFault.describe(path) + ": its file system cannot reserve blocks"
                            + " (fallocate(2): " + Errno.describe(errno) + ") and only " + allocated + " of its "
                            + length + " bytes have storage; if the disk fills, a store into the rest kills this"
                            + " JVM with SIGBUS");
                }
            } else if (errno != 0) {
                throw NativeFiles.failure(path, "fallocate(2)", errno);
            }
        }

        @Override
        void closeFile() throws IOException {
            calls.close(fd, path);
        }
    }
}
