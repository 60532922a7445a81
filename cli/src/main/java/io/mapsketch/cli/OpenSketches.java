package io.mapsketch.cli;

import io.mapsketch.OpenMode;
import io.mapsketch.Sketch;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Several sketch files open read-only at once, closed together: all of them open, or none stays open.
 *
 * @param <S> the sketch type
 */
final class OpenSketches<S extends Sketch> implements AutoCloseable {

    private final List<S> sketches;

    private OpenSketches(int expected) {
        this.sketches = new ArrayList<>(expected);
    }

    /** Opens every file read-only, in order; if one fails, closes those already open and rethrows. */
    static <S extends Sketch> OpenSketches<S> readOnly(List<Path> files, SketchFiles.Opener<S> opener)
            throws IOException {
        OpenSketches<S> all = new OpenSketches<>(files.size());
        try {
            for (Path file : files) {
                all.sketches.add(opener.open(file, OpenMode.READ_ONLY));
            }
            return all;
        } catch (IOException | RuntimeException e) {
            try {
                all.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /** The open sketches, in the order of their files. */
    List<S> list() {
        return sketches;
    }

    @Override
    public void close() throws IOException {
        IOException first = null;
        for (S sketch : sketches) {
            try {
                sketch.close();
            } catch (IOException e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
