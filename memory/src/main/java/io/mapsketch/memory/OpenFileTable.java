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
 * The sketch files this JVM has open, one entry per file (by file key), holding its channels and
 * the writer locks.
 *
 * <p>Why one entry per file rather than one channel per region: Java's file locks are POSIX
 * record locks on Linux, which belong to the process and are dropped when <em>any</em> descriptor
 * of the file in that process is closed. A second region that opened and closed its own channel
 * would silently release the first region's lock. Here a file's channels stay open until its last
 * region in this JVM is closed, and locks are counted across regions.
 *
 * <p>Two lock ranges of the file are used. The <em>writer range</em> is held shared by every
 * {@code SHARED} writer and exclusively by an {@code EXCLUSIVE} one, for as long as they are open.
 * The <em>gate</em> is held exclusively by one writer at a time, in any process or thread, while it
 * registers in the header's live line: a {@code SHARED} writer that can take the writer range
 * exclusively for a moment knows it is the only writer and may reset the writer count left by
 * writers that died; the gate makes sure no other writer registers between that probe and its
 * trade for a shared lock.
 */
final class OpenFileTable {

    /** Start of the gate's one-byte lock range; the writer range is everything below it. */
    static final long GATE = Long.MAX_VALUE - 1;
    /** How long a writer waits for another to finish registering before reporting the file locked. */
    static final long GATE_WAIT_MILLIS = 10_000;

    private static final Object MONITOR = new Object();
    private static final Map<Object, OpenFile> FILES = new HashMap<>();

    private OpenFileTable() {
    }

    /**
     * Attaches to a file in a mode, taking the lock the mode needs. A writer's attachment also holds
     * the gate until {@link #endRegistration}, which the caller must call once it has registered in
     * the live line (or {@link #detach} if opening fails).
     *
     * @throws SketchFileLockedException if the mode is excluded by a writer in this or another process,
     *     or another writer kept the gate for {@value #GATE_WAIT_MILLIS} ms
     */
    static Attachment attach(Path file, AccessMode mode) throws IOException {
        synchronized (MONITOR) {
            Object key = fileKey(file);
            OpenFile open = FILES.computeIfAbsent(key, k -> new OpenFile(file));
            open.references++;
            try {
                if (mode.isWritable()) {
                    open.enterGate();
                }
            } catch (InterruptedException e) {
                release(key, open);
                Thread.currentThread().interrupt();
                throw new SketchFileLockedException(file, "interrupted while waiting for another writer to finish"
                        + " opening the file");
            } catch (IOException | RuntimeException e) {
                release(key, open);
                throw e;
            }
            try {
                return open.attach(key, mode);
            } catch (IOException | RuntimeException e) {
                if (mode.isWritable()) {
                    open.leaveGate();
                }
                release(key, open);
                throw e;
            }
        }
    }

    /**
     * Ends a writer's registration: a sole {@code SHARED} writer trades its exclusive probe for the
     * shared lock, and the gate opens for the next writer.
     */
    static void endRegistration(Attachment attachment) throws IOException {
        synchronized (MONITOR) {
            OpenFile open = attachment.file;
            try {
                if (attachment.mode == AccessMode.SHARED && attachment.soleWriter) {
                    open.lock.release();
                    open.lock = open.writeChannel.tryLock(0, GATE, true);
                    if (open.lock == null) {
                        throw new SketchFileLockedException(open.path, "the shared writer lock was refused"
                                + " while this process held the gate; another program locks the file");
                    }
                }
            } finally {
                open.leaveGate();
            }
        }
    }

    /** Releases what {@link #attach} took; channels close when the file's last region detaches. */
    static void detach(Attachment attachment) throws IOException {
        synchronized (MONITOR) {
            OpenFile open = attachment.file;
            try {
                if (open.gateHolder == attachment) {
                    open.leaveGate();
                }
                open.release(attachment.mode);
            } finally {
                release(attachment.key, open);
            }
        }
    }

    private static void release(Object key, OpenFile open) throws IOException {
        open.references--;
        if (open.references == 0) {
            FILES.remove(key);
            open.closeChannels();
        }
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
     * @param soleWriter {@code true} when no other writer, in any process, has the file
     */
    record Attachment(Object key, OpenFile file, AccessMode mode, FileChannel channel, boolean soleWriter) {
    }

    /** A file's channels and lock state in this JVM. Guarded by {@link #MONITOR}. */
    static final class OpenFile {
        private final Path path;
        private FileChannel readChannel;
        private FileChannel writeChannel;
        private FileLock lock;
        private FileLock gate;
        private Object gateHolder;
        private int sharedWriters;
        private boolean exclusiveWriter;
        private int references;

        OpenFile(Path path) {
            this.path = path;
        }

        /**
         * Takes the gate: waits (releasing the monitor) while another thread of this JVM holds it,
         * then takes the gate's file lock, retrying while another process holds it.
         */
        void enterGate() throws IOException, InterruptedException {
            long deadline = System.currentTimeMillis() + GATE_WAIT_MILLIS;
            while (gateHolder != null || (gate = writableChannel().tryLock(GATE, 1, false)) == null) {
                long left = deadline - System.currentTimeMillis();
                if (left <= 0) {
                    throw new SketchFileLockedException(path, "another writer has been opening the file for "
                            + GATE_WAIT_MILLIS + " ms; it may be stopped");
                }
                MONITOR.wait(Math.min(left, 1));
            }
            gateHolder = this;
        }

        void leaveGate() throws IOException {
            gateHolder = null;
            FileLock held = gate;
            gate = null;
            MONITOR.notifyAll();
            if (held != null) {
                held.release();
            }
        }

        Attachment attach(Object key, AccessMode mode) throws IOException {
            Attachment attachment = switch (mode) {
                case READ_ONLY -> new Attachment(key, this, mode, readableChannel(), false);
                case SHARED -> attachShared(key);
                case EXCLUSIVE -> attachExclusive(key);
            };
            if (mode.isWritable()) {
                gateHolder = attachment;
            }
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
                lock = channel.tryLock(0, GATE, false);
                sole = lock != null;
                if (!sole) {
                    lock = channel.tryLock(0, GATE, true);
                    if (lock == null) {
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
            lock = channel.tryLock(0, GATE, false);
            if (lock == null) {
                throw new SketchFileLockedException(path,
                        "another process holds the file as a writer; cannot open it EXCLUSIVE");
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
            gate = null;
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
