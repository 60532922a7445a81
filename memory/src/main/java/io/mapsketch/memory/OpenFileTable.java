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
import java.util.concurrent.locks.LockSupport;

/**
 * The sketch files this JVM has open, one entry per file (by file key), holding its channels and
 * the writer lock.
 *
 * <p>Why one entry per file rather than one channel per region: Java's file locks are POSIX
 * record locks on Linux, which belong to the process and are dropped when <em>any</em> descriptor
 * of the file in that process is closed. A second region that opened and closed its own channel
 * would silently release the first region's lock. Here a file's channels stay open until its last
 * region in this JVM is closed, and locks are counted across regions.
 */
final class OpenFileTable {

    /** How long a refused lock is retried before it counts as held by a writer (see {@link #pauseUntil}). */
    static final long PROBE_WAIT_NANOS = 250_000_000L;

    private static final Map<Object, OpenFile> FILES = new HashMap<>();

    private OpenFileTable() {
    }

    /**
     * Attaches to a file in a mode, taking the lock the mode needs.
     *
     * @throws SketchFileLockedException if the mode is excluded by a writer in this or another process
     */
    static synchronized Attachment attach(Path file, AccessMode mode) throws IOException {
        Object key = fileKey(file);
        OpenFile open = FILES.get(key);
        if (open == null) {
            open = new OpenFile(file);
            FILES.put(key, open);
        }
        try {
            return open.attach(key, mode);
        } finally {
            if (open.references == 0) {
                open.closeChannels();
                FILES.remove(key);
            }
        }
    }

    /** Releases what {@link #attach} took; channels close when the file's last region detaches. */
    static synchronized void detach(Attachment attachment) throws IOException {
        OpenFile open = attachment.file;
        try {
            open.release(attachment.mode);
        } finally {
            open.references--;
            if (open.references == 0) {
                FILES.remove(attachment.key);
                open.closeChannels();
            }
        }
    }

    /**
     * Ends a sole writer's probe: trades the exclusive lock taken for a {@code SHARED} attach for
     * the shared lock the mode needs.
     *
     * @throws SketchFileLockedException if an exclusive writer took the file in between; the
     *     attachment must then be detached as usual
     */
    static synchronized void endSoleWriterProbe(Attachment attachment) throws IOException {
        OpenFile open = attachment.file;
        open.lock.release();
        long deadline = System.nanoTime() + PROBE_WAIT_NANOS;
        while ((open.lock = open.writeChannel.tryLock(0, Long.MAX_VALUE, true)) == null) {
            if (!pauseUntil(deadline)) {
                throw new SketchFileLockedException(open.path, "an EXCLUSIVE writer in another process took the"
                        + " file while this SHARED writer was attaching");
            }
        }
    }

    /**
     * Sleeps a millisecond unless the deadline has passed. A lock refused now may be another
     * process's sole-writer probe, which holds the exclusive lock for well under a millisecond, so a
     * lock is only reported as held once it stays refused until the deadline.
     */
    private static boolean pauseUntil(long deadline) {
        if (System.nanoTime() - deadline >= 0) {
            return false;
        }
        LockSupport.parkNanos(1_000_000);
        return true;
    }

    private static Object fileKey(Path file) throws IOException {
        Object key = Files.readAttributes(file, BasicFileAttributes.class).fileKey();
        return key != null ? key : file.toRealPath();
    }

    /**
     * One region's hold on a file.
     *
     * @param key the file key in the table
     * @param file the table entry
     * @param mode the mode attached in
     * @param channel the channel to read the header from and to map
     * @param soleWriter {@code true} when no other writer, in any process, has the file: for
     *     {@code SHARED} the file is then held under an exclusive lock until
     *     {@link #endSoleWriterProbe} is called
     */
    record Attachment(Object key, OpenFile file, AccessMode mode, FileChannel channel, boolean soleWriter) {
    }

    /** A file's channels and lock state in this JVM. Guarded by the table's monitor. */
    static final class OpenFile {
        private final Path path;
        private FileChannel readChannel;
        private FileChannel writeChannel;
        private FileLock lock;
        private int sharedWriters;
        private boolean exclusiveWriter;
        private int references;

        OpenFile(Path path) {
            this.path = path;
        }

        Attachment attach(Object key, AccessMode mode) throws IOException {
            Attachment attachment = switch (mode) {
                case READ_ONLY -> new Attachment(key, this, mode, readableChannel(), false);
                case SHARED -> attachShared(key);
                case EXCLUSIVE -> attachExclusive(key);
            };
            references++;
            return attachment;
        }

        private Attachment attachShared(Object key) throws IOException {
            if (exclusiveWriter) {
                throw new SketchFileLockedException(path, "an EXCLUSIVE writer in this process holds the file;"
                        + " SHARED writers must wait until it is closed");
            }
            FileChannel channel = writableChannel();
            boolean sole = false;
            if (sharedWriters == 0) {
                long deadline = System.nanoTime() + PROBE_WAIT_NANOS;
                while (lock == null) {
                    lock = channel.tryLock(0, Long.MAX_VALUE, false);
                    sole = lock != null;
                    if (!sole) {
                        lock = channel.tryLock(0, Long.MAX_VALUE, true);
                    }
                    if (lock == null && !pauseUntil(deadline)) {
                        throw new SketchFileLockedException(path,
                                "an EXCLUSIVE writer in another process holds the file; cannot open it SHARED");
                    }
                }
            }
            sharedWriters++;
            return new Attachment(key, this, AccessMode.SHARED, channel, sole);
        }

        private Attachment attachExclusive(Object key) throws IOException {
            if (exclusiveWriter || sharedWriters > 0) {
                throw new SketchFileLockedException(path, "another writer in this process ("
                        + (exclusiveWriter ? "EXCLUSIVE" : sharedWriters + " SHARED")
                        + ") holds the file; cannot open it EXCLUSIVE");
            }
            FileChannel channel = writableChannel();
            long deadline = System.nanoTime() + PROBE_WAIT_NANOS;
            while ((lock = channel.tryLock(0, Long.MAX_VALUE, false)) == null) {
                if (!pauseUntil(deadline)) {
                    throw new SketchFileLockedException(path,
                            "another process holds the file as a writer; cannot open it EXCLUSIVE");
                }
            }
            exclusiveWriter = true;
            return new Attachment(key, this, AccessMode.EXCLUSIVE, channel, true);
        }

        void release(AccessMode mode) throws IOException {
            if (mode == AccessMode.EXCLUSIVE) {
                exclusiveWriter = false;
                releaseLock();
            } else if (mode == AccessMode.SHARED && --sharedWriters == 0) {
                releaseLock();
            }
        }

        private void releaseLock() throws IOException {
            if (lock != null) {
                lock.release();
                lock = null;
            }
        }

        private FileChannel readableChannel() throws IOException {
            if (writeChannel != null) {
                return writeChannel;
            }
            if (readChannel == null) {
                readChannel = FileChannel.open(path, StandardOpenOption.READ);
            }
            return readChannel;
        }

        private FileChannel writableChannel() throws IOException {
            if (writeChannel == null) {
                writeChannel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
            }
            return writeChannel;
        }

        void closeChannels() throws IOException {
            FileChannel read = readChannel;
            FileChannel write = writeChannel;
            readChannel = null;
            writeChannel = null;
            lock = null;
            try {
                if (read != null) {
                    read.close();
                }
            } finally {
                if (write != null) {
                    write.close();
                }
            }
        }
    }
}
