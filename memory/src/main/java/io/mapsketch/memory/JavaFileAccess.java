package io.mapsketch.memory;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.HashMap;
import java.util.Map;

/**
 * Sketch files through Java's file API, where native access is not available: a path is checked
 * before it is opened (a FIFO swapped in between the two can block the open), writer locks are
 * Java's {@link FileLock}s (POSIX record locks, which any close of another descriptor of the file in
 * this JVM releases), and blocks are not reserved.
 */
final class JavaFileAccess extends FileAccess {

    @Override
    OpenedFile open(Path file, boolean writable) throws IOException {
        FileStatus status = status(file);
        status.requireRegularFile(file);
        return new PathChannel(file, writable, status);
    }

    @Override
    FileStatus status(Path file) throws IOException {
        if (file.getFileSystem().supportedFileAttributeViews().contains("unix")) {
            Map<String, Object> unix = Files.readAttributes(file, "unix:mode,dev,ino,size");
            return new FileStatus(
                    FileStatus.Type.ofMode((Integer) unix.get("mode")),
                    FileIdentity.of((Long) unix.get("dev"), (Long) unix.get("ino")),
                    (Long) unix.get("size"),
                    -1);
        }
        BasicFileAttributes basic = Files.readAttributes(file, BasicFileAttributes.class);
        FileStatus.Type type = basic.isRegularFile()
                ? FileStatus.Type.REGULAR
                : basic.isDirectory() ? FileStatus.Type.DIRECTORY : FileStatus.Type.OTHER;
        Object key = basic.fileKey();
        return new FileStatus(type, key != null ? key : file.toRealPath(), basic.size(), -1);
    }

    /** A file open on a channel by its path, locked with Java's file locks. */
    static final class PathChannel extends OpenedFile {

        private final Map<Long, FileLock> locks = new HashMap<>();

        PathChannel(Path path, boolean writable, FileStatus status) {
            super(path, writable, status);
        }

        @Override
        FileChannel openChannel() throws IOException {
            return writable
                    ? FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE)
                    : FileChannel.open(path, StandardOpenOption.READ);
        }

        @Override
        boolean tryLock(long start, long length, boolean shared) throws IOException {
            unlock(start, length);
            FileLock lock = channel().tryLock(start, length, shared);
            if (lock != null) {
                locks.put(start, lock);
            }
            return lock != null;
        }

        @Override
        void unlock(long start, long length) throws IOException {
            FileLock held = locks.remove(start);
            if (held != null) {
                held.release();
            }
        }

        @Override
        void reserve(long length) {
            // Java cannot allocate blocks without writing them: the notice at the choice said so.
        }

        @Override
        void closeFile() {
            locks.clear();
        }
    }
}
