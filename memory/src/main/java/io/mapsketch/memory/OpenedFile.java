package io.mapsketch.memory;

import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * A regular file opened for the regions of this JVM ({@link FileAccess#open}): its status when it
 * was opened, one channel to read its header and map it, and, opened for writing, the writer locks
 * and the reservation of its blocks. Its locks change under the monitor of its
 * {@link OpenFileTable} entry; {@link #reserve} may run outside it.
 */
abstract sealed class OpenedFile implements Closeable permits NativeFileAccess.Descriptor, JavaFileAccess.PathChannel {

    final Path path;
    final boolean writable;
    final FileStatus status;
    private FileChannel channel;

    OpenedFile(Path path, boolean writable, FileStatus status) {
        this.path = path;
        this.writable = writable;
        this.status = status;
    }

    /** The channel to this file (opened at the first call), readable, and writable if the file was opened so. */
    final FileChannel channel() throws IOException {
        if (channel == null) {
            channel = openChannel();
        }
        return channel;
    }

    abstract FileChannel openChannel() throws IOException;

    /**
     * Takes a lock on {@code [start, start + length)} without waiting; a range this file already holds
     * is converted to the kind asked for.
     *
     * @return {@code false} if another holder's lock conflicts
     */
    abstract boolean tryLock(long start, long length, boolean shared) throws IOException;

    /** Releases the lock on {@code [start, start + length)}. */
    abstract void unlock(long start, long length) throws IOException;

    /**
     * Reserves storage for every byte of {@code [0, length)}, so that a store through a mapping cannot
     * meet a full disk.
     *
     * @throws FileFault {@code STORAGE} if the file system has not the space
     */
    abstract void reserve(long length) throws IOException;

    /** Closes the channel and what else was opened; this releases the locks. */
    @Override
    public void close() throws IOException {
        try {
            if (channel != null) {
                channel.close();
            }
        } finally {
            closeFile();
        }
    }

    abstract void closeFile() throws IOException;
}
