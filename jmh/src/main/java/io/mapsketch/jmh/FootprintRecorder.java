package io.mapsketch.jmh;

import com.google.common.io.ByteStreams;
import com.google.common.io.CountingOutputStream;
import io.mapsketch.Sketch;
import io.mapsketch.memory.SketchFileLayout;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * Collects {@link MemoryFootprint}'s rows: measures a mapsketch sketch by its file's size (created in
 * the run's directory, filled, closed, deleted) and takes a peer's size as its library measures it.
 */
final class FootprintRecorder {

    private final Path directory;
    private final List<MemoryFootprint.Row> rows = new ArrayList<>();
    private int files;

    /**
     * Creates a recorder whose sketch files go to {@code directory}.
     *
     * @param directory an existing directory, emptied again by each measurement
     */
    FootprintRecorder(Path directory) {
        this.directory = directory;
    }

    /**
     * Returns the rows recorded so far.
     *
     * @return the rows, in the order recorded
     */
    List<MemoryFootprint.Row> rows() {
        return List.copyOf(rows);
    }

    /** Creates a mapsketch sketch in a new file, fills it, closes it and records the file's size. */
    <S extends Sketch> void mapsketch(
            String question, String setting, String impl, SketchFactory<S> factory, SketchFiller<S> filler)
            throws IOException {
        mapsketch(question, setting, impl, factory, filler, sketch -> "");
    }

    /** As the other {@code mapsketch}, with a note about the filled sketch. */
    <S extends Sketch> void mapsketch(
            String question,
            String setting,
            String impl,
            SketchFactory<S> factory,
            SketchFiller<S> filler,
            Function<S, String> note)
            throws IOException {
        Path file = directory.resolve("sketch-" + files++);
        long payload;
        String noted;
        try (S sketch = factory.create(file)) {
            filler.fill(sketch);
            sketch.force();
            payload = sketch.memoryBytes();
            noted = note.apply(sketch);
        }
        long size = Files.size(file);
        Files.delete(file);
        if (size != SketchFileLayout.HEADER_LENGTH + payload) {
            throw new IllegalStateException(impl + " at " + setting + ": file of " + size + " bytes, but header "
                    + SketchFileLayout.HEADER_LENGTH + " + payload " + payload);
        }
        add(
                question,
                setting,
                impl,
                size,
                String.format(
                        Locale.ROOT, "file size: header %,d + payload %,d", SketchFileLayout.HEADER_LENGTH, payload),
                noted);
    }

    /** Records a peer's row. */
    void add(String question, String setting, String impl, long bytes, String measure, String note) {
        rows.add(new MemoryFootprint.Row(question, setting, impl, bytes, measure, note));
    }

    /** Bytes a {@code writeTo(OutputStream)} writes. */
    static long written(Writer writer) {
        CountingOutputStream counter = new CountingOutputStream(ByteStreams.nullOutputStream());
        try {
            writer.writeTo(counter);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return counter.getCount();
    }

    /** Keys {@code first .. first + count - 1} of {@link KeyStreams#key}. */
    static long[] keys(long first, int count) {
        long[] keys = new long[count];
        for (int i = 0; i < count; i++) {
            keys[i] = KeyStreams.key(first + i);
        }
        return keys;
    }

    /** Creates a mapsketch sketch in a file. */
    @FunctionalInterface
    interface SketchFactory<S extends Sketch> {

        S create(Path file) throws IOException;
    }

    /** Adds the setting's keys to a sketch. */
    @FunctionalInterface
    interface SketchFiller<S extends Sketch> {

        void fill(S sketch) throws IOException;
    }

    /** A peer's {@code writeTo(OutputStream)}. */
    @FunctionalInterface
    interface Writer {

        void writeTo(OutputStream out) throws IOException;
    }
}
