package io.mapsketch.memory;

import static io.mapsketch.memory.FileFault.Reason.LOCKED;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The sketch files this JVM has open, one entry per file (by identity: device and inode), holding
 * the files opened for its regions and the writer locks.
 *
 * <p>One entry per file rather than one descriptor per region: a file's descriptors stay open
 * until its last region in this JVM is closed, and locks are counted across regions. With
 * {@linkplain JavaFileAccess Java's file locks}, which are POSIX record locks, that is
 * what keeps a region's close from releasing another region's lock.
 *
 * <p>Two lock ranges of the file are used. The <em>writer range</em> is held shared by every
 * {@code SHARED} writer and exclusively by an {@code EXCLUSIVE} one, for as long as they are open.
 * The <em>gate</em> is held exclusively by one writer at a time, in any process or thread, while it
 * registers in the header's live line: a {@code SHARED} writer that can take the writer range
 * exclusively for a moment knows it is the only writer and may reset the writer count left by
 * writers that died; the gate makes sure no other writer registers between that probe and its
 * trade for a shared lock. A writer checks, inside the gate, that the path still names the file it
 * opened, and opens the path again if not: a replacement ({@link SketchFileWriter}) renames inside
 * the old file's gate.
 *
 * <p>Threads: one JVM-wide monitor guards the table and the entries' reference counts, and is never
 * held while a file is opened; each entry's own monitor guards its state.
 */
final class OpenFileTable {

    /** Start of the gate's one-byte lock range; the writer range is everything below it. */
    static final long GATE = Long.MAX_VALUE - 1;
    /** How long a writer waits for another to finish registering before reporting the file locked. */
    static final long GATE_WAIT_MILLIS = 10_000;
    /** How many times a writer opens a path that keeps being replaced while it opens it. */
    private static final int OPEN_ATTEMPTS = 3;

    private static final Object MONITOR = new Object();
    private static final Map<Object, OpenFile> FILES = new HashMap<>();

    private OpenFileTable() {}

    /**
     * Attaches to a file in a mode, taking the lock the mode needs. A writer's attachment also holds
     * the gate until {@link #endRegistration}, which the caller must call once it has registered in
     * the live line (or {@link #detach} if opening fails).
     *
     * @throws FileFault {@code CORRUPT} if the path does not name a regular file; {@code LOCKED} if the
     *     mode is excluded by a writer in this or another process, another writer kept the gate for {@value #GATE_WAIT_MILLIS} ms, or the path was replaced
     *     {@value #OPEN_ATTEMPTS} times while this writer opened it
     */
    static Attachment attach(Path file, RegionMode mode) throws IOException {
        FileAccess access = FileAccess.get();
        for (int attempt = 1; ; attempt++) {
            Attachment attachment = attach(file, mode, access.open(file, mode.isWritable()));
            if (!mode.isWritable() || namesAttachedFile(file, attachment, access)) {
                return attachment;
            }
            detach(attachment);
            if (attempt == OPEN_ATTEMPTS) {
                throw new FileFault(
                        LOCKED,
                        file,
                        "another file was put at this path " + attempt + " times while this writer opened it");
            }
        }
    }

    private static boolean namesAttachedFile(Path file, Attachment attachment, FileAccess access) throws IOException {
        try {
            return access.status(file).identity().equals(attachment.key());
        } catch (NoSuchFileException gone) {
            return false;
        }
    }

    private static Attachment attach(Path file, RegionMode mode, OpenedFile opened) throws IOException {
        Object key = opened.status.identity();
        OpenFile open;
        synchronized (MONITOR) {
            open = FILES.computeIfAbsent(key, k -> new OpenFile(file, k));
            open.references++;
        }
        try {
            return open.attach(mode, opened);
        } catch (IOException | RuntimeException e) {
            release(open);
            throw e;
        }
    }

    /**
     * Ends a writer's registration: a sole {@code SHARED} writer trades its exclusive probe for the
     * shared lock, and the gate opens for the next writer.
     */
    static void endRegistration(Attachment attachment) throws IOException {
        attachment.file().endRegistration(attachment);
    }

    /** Releases what {@link #attach} took; descriptors close when the file's last region detaches. */
    static void detach(Attachment attachment) throws IOException {
        OpenFile open = attachment.file();
        try {
            open.detach(attachment);
        } finally {
            release(open);
        }
    }

    /**
     * Closes an entry's files when its last reference goes, inside the monitor, so that no new entry
     * of the same file holds locks meanwhile (a close releases the process's Java file locks).
     */
    private static void release(OpenFile open) throws IOException {
        synchronized (MONITOR) {
            if (--open.references == 0) {
                FILES.remove(open.key, open);
                open.close();
            }
        }
    }

    /**
     * One region's hold on a file.
     *
     * @param key the file's identity in the table
     * @param file the table entry
     * @param mode the mode attached in
     * @param opened the opened file the region reads and maps through
     * @param channel its channel, to read the header from and to map
     * @param soleWriter {@code true} when no other writer, in any process, has the file
     */
    record Attachment(
            Object key, OpenFile file, RegionMode mode, OpenedFile opened, FileChannel channel, boolean soleWriter) {

        /**
         * Tells what became of a writer's file since it was validated and mapped: {@code null} if it still
         * has its length and is the file at its path; {@code CORRUPT} if its length changed (an access past
         * the new end would kill the JVM: never truncate a mapped sketch file), {@code REPLACED} if the path
         * names another file or none. Cost: two {@code stat} calls.
         */
        FileFault changedSince(Path file, long mappedLength) throws IOException {
            long length = channel.size();
            if (length != mappedLength) {
                return new FileFault(
                        FileFault.Reason.CORRUPT,
                        file,
                        "file length is " + length + " bytes, but "
                                + mappedLength + " are mapped: the file was truncated or extended while open, which"
                                + " mapsketch never does; an access past its end would kill the JVM (SIGBUS)");
            }
            try {
                if (FileAccess.get().status(file).identity().equals(key)) {
                    return null;
                }
            } catch (NoSuchFileException gone) {
                return new FileFault(
                        FileFault.Reason.REPLACED,
                        file,
                        "no file is at this path any more (deleted"
                                + " or renamed); what this writer added is only in the file it still maps");
            }
            return new FileFault(
                    FileFault.Reason.REPLACED,
                    file,
                    "another file is at this path now (replaced, for"
                            + " example by a create with CreateOption.REPLACE_IN_USE); what this writer added is only in"
                            + " the file it still maps, which no new opener of the path sees");
        }

        /** Reserves the storage of the file's first {@code length} bytes ({@link OpenedFile#reserve}). */
        void reserve(long length) throws IOException {
            opened.reserve(length);
        }
    }

    /** A file's opened files and lock state in this JVM. Guarded by its own monitor. */
    static final class OpenFile {
        private final Path path;
        private final Object key;
        private OpenedFile reader;
        private OpenedFile writer;
        private boolean gateLocked;
        private Object gateHolder;
        private int sharedWriters;
        private boolean exclusiveWriter;
        /** Guarded by {@link #MONITOR}. */
        private int references;

        OpenFile(Path path, Object key) {
            this.path = path;
            this.key = key;
        }

        synchronized Attachment attach(RegionMode mode, OpenedFile opened) throws IOException {
            OpenedFile side = adopt(opened, mode.isWritable());
            if (!mode.isWritable()) {
                return new Attachment(key, this, mode, side, side.channel(), false);
            }
            try {
                enterGate(side);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new FileFault(
                        LOCKED, path, "interrupted while waiting for another writer to finish" + " opening the file");
            }
            try {
                Attachment attachment = mode == RegionMode.SHARED ? attachShared(side) : attachExclusive(side);
                gateHolder = attachment;
                return attachment;
            } catch (IOException | RuntimeException e) {
                leaveGate();
                throw e;
            }
        }

        /** Keeps {@code opened} as the file's reader or writer if it has none yet, else closes it for the kept one. */
        private OpenedFile adopt(OpenedFile opened, boolean writable) throws IOException {
            OpenedFile kept = writable ? writer : writer != null ? writer : reader;
            if (kept == null) {
                try {
                    opened.channel();
                } catch (IOException | RuntimeException e) {
                    closeQuietly(opened, e);
                    throw e;
                }
                if (writable) {
                    writer = opened;
                } else {
                    reader = opened;
                }
                return opened;
            }
            opened.close();
            return kept;
        }

        /**
         * Takes the gate: waits (releasing this entry's monitor) while another thread of this JVM holds
         * it, then takes the gate's file lock, retrying while another process holds it.
         */
        private void enterGate(OpenedFile side) throws IOException, InterruptedException {
            long deadline = System.currentTimeMillis() + GATE_WAIT_MILLIS;
            while (gateHolder != null || !side.tryLock(GATE, 1, false)) {
                long left = deadline - System.currentTimeMillis();
                if (left <= 0) {
                    throw new FileFault(
                            LOCKED,
                            path,
                            "another writer has been opening the file for " + GATE_WAIT_MILLIS
                                    + " ms; it may be stopped");
                }
                wait(Math.min(left, 1));
            }
            gateLocked = true;
            gateHolder = this;
        }

        private void leaveGate() throws IOException {
            gateHolder = null;
            notifyAll();
            if (gateLocked) {
                gateLocked = false;
                writer.unlock(GATE, 1);
            }
        }

        private Attachment attachShared(OpenedFile side) throws IOException {
            if (exclusiveWriter) {
                throw new FileFault(
                        LOCKED,
                        path,
                        "an EXCLUSIVE writer in this process holds the file;"
                                + " SHARED writers must wait until it is closed");
            }
            boolean sole = false;
            if (sharedWriters == 0) {
                sole = side.tryLock(0, GATE, false);
                if (!sole && !side.tryLock(0, GATE, true)) {
                    throw new FileFault(
                            LOCKED,
                            path,
                            "an EXCLUSIVE writer in another process holds the file; cannot open it SHARED");
                }
            }
            sharedWriters++;
            return new Attachment(key, this, RegionMode.SHARED, side, side.channel(), sole);
        }

        private Attachment attachExclusive(OpenedFile side) throws IOException {
            if (exclusiveWriter || sharedWriters > 0) {
                throw new FileFault(
                        LOCKED,
                        path,
                        "another writer in this process ("
                                + (exclusiveWriter ? "EXCLUSIVE" : sharedWriters + " SHARED")
                                + ") holds the file; cannot open it EXCLUSIVE");
            }
            if (!side.tryLock(0, GATE, false)) {
                throw new FileFault(
                        LOCKED, path, "another process holds the file as a writer; cannot open it EXCLUSIVE");
            }
            exclusiveWriter = true;
            return new Attachment(key, this, RegionMode.EXCLUSIVE, side, side.channel(), true);
        }

        synchronized void endRegistration(Attachment attachment) throws IOException {
            try {
                if (attachment.mode() == RegionMode.SHARED
                        && attachment.soleWriter()
                        && !writer.tryLock(0, GATE, true)) {
                    throw new FileFault(
                            LOCKED,
                            path,
                            "the shared writer lock was refused"
                                    + " while this process held the gate; another program locks the file");
                }
            } finally {
                leaveGate();
            }
        }

        synchronized void detach(Attachment attachment) throws IOException {
            if (gateHolder == attachment) {
                leaveGate();
            }
            if (attachment.mode() == RegionMode.EXCLUSIVE) {
                exclusiveWriter = false;
                writer.unlock(0, GATE);
            } else if (attachment.mode() == RegionMode.SHARED && --sharedWriters == 0) {
                writer.unlock(0, GATE);
            }
        }

        synchronized void close() throws IOException {
            OpenedFile read = reader;
            OpenedFile write = writer;
            reader = null;
            writer = null;
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

        private static void closeQuietly(OpenedFile opened, Exception cause) {
            try {
                opened.close();
            } catch (IOException suppressed) {
                cause.addSuppressed(suppressed);
            }
        }
    }
}
