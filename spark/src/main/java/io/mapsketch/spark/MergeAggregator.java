package io.mapsketch.spark;

import io.mapsketch.OpenMode;
import io.mapsketch.Sketch;
import io.mapsketch.SketchImage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;

/**
 * The aggregate that merges a column of sketch file images of one mergeable kind, shape, hash scheme and seed
 * into one: the bytes of the merged sketch's file. Null images are skipped; a group of none gives null. Images
 * that do not merge fail the job with the engine's message ({@link io.mapsketch.IncompatibleSketchException}).
 */
final class MergeAggregator extends SketchAggregator<byte[]> {

    private static final long serialVersionUID = 1L;

    /** The name an input image is given in messages. */
    private static final Path INPUT = Path.of("a mapsketch_merge_agg input");

    @Override
    public SketchBuffer zero() {
        return new SketchBuffer();
    }

    @Override
    public SketchBuffer reduce(SketchBuffer buffer, byte[] image) {
        if (image == null) {
            return buffer;
        }
        try (Sketch input = SketchImage.open(MemorySegment.ofArray(image), INPUT, OpenMode.READ_ONLY)) {
            buffer.merge(input);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return buffer;
    }
}
