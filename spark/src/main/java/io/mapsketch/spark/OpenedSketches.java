package io.mapsketch.spark;

import io.mapsketch.OpenMode;
import io.mapsketch.Sketch;
import io.mapsketch.SketchImage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The sketch a scalar function last read, kept while the same image comes again (as it does for a sketch
 * broadcast to, or joined with, every row), so that a column of lookups opens each distinct sketch once per
 * task, not once per row. Cost per row: a comparison of the image with the kept one, unless it is the same
 * array. Freed off-heap memory follows the replaced sketch's close.
 */
final class OpenedSketches {

    /** The name an image read by a scalar function is given in messages. */
    private static final Path ARGUMENT = Path.of("a mapsketch function's sketch argument");

    private byte[] image;
    private Sketch sketch;

    /** The sketch of an image, read-only. */
    synchronized Sketch of(byte[] bytes) {
        if (bytes == image || (sketch != null && Arrays.equals(bytes, image))) {
            return sketch;
        }
        try {
            Sketch opened = SketchImage.open(MemorySegment.ofArray(bytes), ARGUMENT, OpenMode.READ_ONLY);
            if (sketch != null) {
                sketch.close();
            }
            sketch = opened;
            image = bytes;
            return opened;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The sketch of an image as a {@code type}, or a refusal naming the function and the kinds it reads. */
    <S> S of(byte[] bytes, Class<S> type, String function, String kinds) {
        Sketch opened = of(bytes);
        if (!type.isInstance(opened)) {
            throw new IllegalArgumentException(function + ": sketch kind = " + opened.kind() + ", must be " + kinds);
        }
        return type.cast(opened);
    }
}
