package io.mapsketch.cli;

import io.mapsketch.OpenMode;
import io.mapsketch.Sketch;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The sketch files {@code mapsketch pipe} keeps open across its command lines, by the path as the
 * commands spell it: at most {@value #MAX_OPEN}, the least recently used closed when one more opens
 * (and opened again if a later command names it). A file opens read-only for a command that only
 * reads it and as a {@code SHARED} writer for one that writes (opened anew, the read-only one closed, when
 * a write follows reads), so that other processes read and write it meanwhile; every file is closed at
 * the end of the pipe. A file that fails to open is not kept: a later command tries again.
 */
final class PipeFiles implements AutoCloseable {

    /** How many files stay open at once. */
    static final int MAX_OPEN = 64;

    /** One open file. */
    static final class Entry {
        private final byte[] name;
        private final Path path;
        private Sketch sketch;
        private boolean writable;
        private boolean open = true;

        private Entry(byte[] name, Path path, Sketch sketch, boolean writable) {
            this.name = name;
            this.path = path;
            this.sketch = sketch;
            this.writable = writable;
        }

        /** The file, as the command named it. */
        Path path() {
            return path;
        }

        /** The open sketch. */
        Sketch sketch() {
            return sketch;
        }
    }

    private final PrintWriter err;
    private final Map<String, Entry> files = new LinkedHashMap<>(2 * MAX_OPEN, 0.75f, true);
    private Entry last;
    private boolean closeFailed;

    /** @param err where a file that fails to close is reported */
    PipeFiles(PrintWriter err) {
        this.err = err;
    }

    /**
     * The file named by {@code name[offset, offset + length)} open as a {@code type}, opened with
     * {@code opener} unless it is open already as such a sketch and, for {@code write}, as a writer.
     *
     * @throws IOException if it cannot be opened as {@code opener} opens it (then it is not kept)
     */
    <S extends Sketch> Entry open(
            byte[] name, int offset, int length, Class<S> type, SketchFiles.Opener<? extends S> opener, boolean write)
            throws IOException {
        Entry entry;
        String text = null;
        if (last != null && last.open && Arrays.equals(last.name, 0, last.name.length, name, offset, offset + length)) {
            entry = last;
        } else {
            text = new String(name, offset, length, StandardCharsets.UTF_8);
            entry = files.get(text);
        }
        if (entry != null && type.isInstance(entry.sketch) && (entry.writable || !write)) {
            last = entry;
            return entry;
        }
        Path path = entry != null ? entry.path : Path.of(text);
        Sketch opened = opener.open(path, write ? OpenMode.SHARED : OpenMode.READ_ONLY);
        if (entry != null) {
            close(entry.sketch);
            entry.sketch = opened;
            entry.writable = write;
        } else {
            entry = new Entry(Arrays.copyOfRange(name, offset, offset + length), path, opened, write);
            files.put(text, entry);
            evictBeyondLimit();
        }
        last = entry;
        return entry;
    }

    private void evictBeyondLimit() {
        Iterator<Entry> oldest = files.values().iterator();
        while (files.size() > MAX_OPEN) {
            Entry evicted = oldest.next();
            oldest.remove();
            evicted.open = false;
            close(evicted.sketch);
        }
    }

    /** How many files are open. */
    int size() {
        return files.size();
    }

    /** Whether a file failed to close (it was reported on standard error). */
    boolean closeFailed() {
        return closeFailed;
    }

    private void close(Sketch sketch) {
        try {
            sketch.close();
        } catch (IOException | RuntimeException e) {
            closeFailed = true;
            err.println("mapsketch: " + FaultHandler.describe(e));
        }
    }

    /** Closes every file, reporting those that fail to close. */
    @Override
    public void close() {
        for (Entry entry : files.values()) {
            entry.open = false;
            close(entry.sketch);
        }
        files.clear();
        last = null;
    }
}
