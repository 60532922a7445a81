package io.mapsketch.spark;

import io.mapsketch.Mergeable;
import io.mapsketch.OpenMode;
import io.mapsketch.Sketch;
import io.mapsketch.SketchImage;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serial;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.lang.ref.Cleaner;
import java.nio.file.Path;
import java.time.Instant;

/**
 * An aggregate's buffer: one anonymous sketch, updated in place while a task aggregates and serialized as its
 * file image only when Spark moves it (across the shuffle, or to spill). Empty (no sketch) until the first
 * input of a merging aggregate. The sketch's memory is off-heap and is freed when the buffer becomes
 * unreachable, since Spark does not say when it is done with a buffer. Public only because Spark's encoders
 * take public classes alone; nothing of it is callable from outside this package.
 */
public final class SketchBuffer implements Serializable {

    @Serial
    private static final long serialVersionUID = 1L;

    private static final Cleaner CLEANER = Cleaner.create();

    /** The name a shuffled buffer's image is given in messages. */
    private static final Path SHUFFLED = Path.of("a mapsketch aggregate's buffer");

    private transient Sketch sketch;

    SketchBuffer() {}

    SketchBuffer(Sketch sketch) {
        hold(sketch);
    }

    /** The sketch, or {@code null} if nothing was merged into an empty buffer. */
    Sketch sketch() {
        return sketch;
    }

    /**
     * Merges a sketch into this buffer's, or takes a copy of it as this buffer's if empty; {@code other} is not
     * kept.
     *
     * @throws io.mapsketch.IncompatibleSketchException naming the first field in which they differ
     * @throws IllegalArgumentException if the buffer's kind does not merge
     */
    void merge(Sketch other) {
        if (other == null) {
            return;
        }
        if (sketch == null) {
            hold(copyOf(other));
            return;
        }
        if (!(sketch instanceof Mergeable<?> mergeable)) {
            throw new IllegalArgumentException("sketch kind = " + sketch.kind()
                    + ", which does not merge (the mergeable kinds are Bloom filters, Count-Min, Top-K,"
                    + " HyperLogLog and MinHash)");
        }
        mergeable.mergeSketch(other);
    }

    /** The bytes of the sketch's file, independent of when it was built, or {@code null} if empty. */
    byte[] image() {
        return sketch == null ? null : SketchImage.toBytes(sketch, Instant.EPOCH);
    }

    private void hold(Sketch held) {
        this.sketch = held;
        CLEANER.register(this, new Release(held));
    }

    private static Sketch copyOf(Sketch other) {
        return open(SketchImage.toBytes(other), SHUFFLED);
    }

    /** Opens an image as a writable anonymous sketch. */
    static Sketch open(byte[] image, Path origin) {
        try {
            return SketchImage.open(MemorySegment.ofArray(image), origin, OpenMode.EXCLUSIVE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Writes the buffer as its sketch's image.
     *
     * @param out the stream
     * @throws IOException if the stream fails
     * @serialData the image's length as an int (-1 for an empty buffer), then the image's bytes
     */
    @Serial
    private void writeObject(ObjectOutputStream out) throws IOException {
        byte[] image = image();
        out.writeInt(image == null ? -1 : image.length);
        if (image != null) {
            out.write(image);
        }
    }

    /**
     * Reads a buffer written by {@link #writeObject}, opening its image as an anonymous sketch.
     *
     * @param in the stream
     * @throws IOException if the stream fails or the image is not a valid sketch file
     */
    @Serial
    private void readObject(ObjectInputStream in) throws IOException {
        int length = in.readInt();
        if (length >= 0) {
            byte[] image = in.readNBytes(length);
            hold(open(image, SHUFFLED));
        }
    }

    /** Frees a buffer's sketch; holds no reference to the buffer. */
    private record Release(Sketch sketch) implements Runnable {
        @Override
        public void run() {
            try {
                sketch.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
