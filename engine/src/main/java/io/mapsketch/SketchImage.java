package io.mapsketch;

import io.mapsketch.internal.Regions;
import io.mapsketch.internal.SketchInternals;
import io.mapsketch.internal.SketchOpener;
import io.mapsketch.memory.SketchFileLayout;
import io.mapsketch.memory.SketchImages;
import io.mapsketch.memory.SketchRegion;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Objects;

/**
 * Sketches as values: the bytes of a complete sketch file (header page and payload), for systems that move
 * sketches in memory, such as a column of a data frame or a message, instead of as files. The bytes of
 * {@link #toBytes} written to a file are a sketch file that {@code open} and {@code mapsketch info} read;
 * {@link #open(byte[], OpenMode)} reads them back without a file; {@link #create} writes them to a file with
 * the crash-safe creation of the builders.
 *
 * <p>An image is what the sketch's file would hold after a clean close by its only writer: the header with its
 * creation time, the items added and total weight, the payload and its checksum, sealed. Two sketches that
 * hold the same items in the same shape, with equal creation times, have equal images, however they were built
 * (added, merged, in any order): what records a file's history rather than its state (a HyperLogLog's change
 * guard) is reset. A scalable Bloom
 * filter, a directory of files, has none.
 */
public final class SketchImage {

    /** The longest image, in bytes: the longest Java array. */
    public static final long MAX_LENGTH = SketchImages.MAX_IMAGE_LENGTH;

    /** The name an image read from bytes is given in messages when the caller names none. */
    public static final Path DEFAULT_ORIGIN = Path.of("sketch image");

    private SketchImage() {}

    /**
     * Returns the bytes of the sketch's file, with the creation time of its header. Cost: one copy and one
     * CRC32C pass of the payload; concurrent writers leave a mix of before and after, as a copy of the file
     * would.
     *
     * @param sketch an open sketch of one file (any kind but a scalable Bloom filter), mapped or anonymous
     * @return a new array of 4096 + {@link Sketch#memoryBytes()} bytes
     * @throws IllegalArgumentException if the sketch is a scalable Bloom filter or longer than {@link #MAX_LENGTH}
     * @throws IllegalStateException if the sketch is closed
     */
    public static byte[] toBytes(Sketch sketch) {
        return image(sketch, regionOf(sketch).header().createdMillis());
    }

    /**
     * Returns the bytes of the sketch's file with {@code created} as its creation time, such as
     * {@link Instant#EPOCH} for images that must depend on the items alone. Otherwise as {@link #toBytes(Sketch)}.
     *
     * @param sketch an open sketch of one file (any kind but a scalable Bloom filter), mapped or anonymous
     * @param created the creation time the image records, to the millisecond
     * @return a new array of 4096 + {@link Sketch#memoryBytes()} bytes
     * @throws IllegalArgumentException as {@link #toBytes(Sketch)}, or if {@code created} is not representable in
     *     milliseconds since the epoch
     * @throws IllegalStateException if the sketch is closed
     */
    public static byte[] toBytes(Sketch sketch, Instant created) {
        Objects.requireNonNull(created, "created");
        long millis;
        try {
            millis = created.toEpochMilli();
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException(
                    "created = " + created + ", must be within +-2^63 milliseconds of the epoch", e);
        }
        return image(sketch, millis);
    }

    /** The image, its summary line settled by the sketch's kind. */
    private static byte[] image(Sketch sketch, long createdMillis) {
        SketchRegion region = regionOf(sketch);
        byte[] image = SketchImages.write(region, createdMillis);
        if (region.header().hasSummaryLine()) {
            MemorySegment bytes = MemorySegment.ofArray(image);
            SketchInternals.settleImageSummaryLine(
                    sketch,
                    bytes.asSlice(SketchFileLayout.SUMMARY_OFFSET, SketchFileLayout.CACHE_LINE),
                    bytes.asSlice(
                            region.header().payloadOffset(), region.header().payloadLength()));
        }
        return image;
    }

    /**
     * Opens an anonymous sketch holding a copy of an image, as the kind its header names; messages name the image
     * {@link #DEFAULT_ORIGIN}. As {@link #open(MemorySegment, Path, OpenMode)}.
     *
     * @param image the bytes of a sketch file; not retained
     * @param mode {@code READ_ONLY} to refuse writes to the copy, {@code SHARED} or {@code EXCLUSIVE} to update it
     * @return the open sketch, of its kind's class; {@link Sketch#file()} is empty
     * @throws SketchFileException as {@link #open(MemorySegment, Path, OpenMode)}
     * @throws IOException as {@link #open(MemorySegment, Path, OpenMode)}
     */
    public static Sketch open(byte[] image, OpenMode mode) throws IOException {
        return open(MemorySegment.ofArray(Objects.requireNonNull(image, "image")), DEFAULT_ORIGIN, mode);
    }

    /**
     * Opens an anonymous sketch holding a copy of an image, as the kind its header names. The image is validated
     * and refused as its kind's {@code open} refuses a file (header fields, parameters, hash scheme), and its
     * payload is compared with its sealed checksum. Cost: one CRC32C pass and one copy of the image; the sketch
     * is freed by {@code close()}.
     *
     * @param image the bytes of a sketch file; not retained
     * @param origin the name the image is given in messages (where it came from)
     * @param mode {@code READ_ONLY} to refuse writes to the copy, {@code SHARED} or {@code EXCLUSIVE} to update it
     * @return the open sketch, of its kind's class; {@link Sketch#file()} is empty
     * @throws CorruptSketchFileException naming {@code origin} and the field or payload chunk at fault
     * @throws IncompatibleSketchFileException naming {@code origin} if the image is of a newer format, an unknown
     *     kind or hash scheme, or a scalable Bloom filter's manifest
     * @throws IOException if the kind's {@code open} refuses it
     */
    public static Sketch open(MemorySegment image, Path origin, OpenMode mode) throws IOException {
        return SketchOpener.openImage(
                Objects.requireNonNull(image, "image"), Objects.requireNonNull(origin, "origin"), mode);
    }

    /**
     * Writes an image to a new sketch file, validated as {@link #open(MemorySegment, Path, OpenMode)} validates it,
     * with the builders' crash-safe creation: the file appears complete at its name, or not at all. Opening the
     * file then reads exactly the image. Cost: one CRC32C pass of the image, one write and one {@code fsync}.
     *
     * @param image the bytes of a sketch file
     * @param file where the sketch file goes
     * @param options {@link CreateOption#OVERWRITE_EXISTING} to replace a file that no writer has open,
     *     {@link CreateOption#REPLACE_IN_USE} even then, {@link CreateOption#OWNER_ONLY} for permissions 0600
     * @throws java.nio.file.FileAlreadyExistsException if the file exists and overwriting was not asked for
     * @throws CorruptSketchFileException naming {@link #DEFAULT_ORIGIN} if the image is damaged, or has writers
     *     attached
     * @throws SketchFileLockedException if overwriting was asked for and writers have the existing file open
     * @throws IOException if the file cannot be written
     */
    public static void create(byte[] image, Path file, CreateOption... options) throws IOException {
        Regions.createFromImage(
                MemorySegment.ofArray(Objects.requireNonNull(image, "image")),
                DEFAULT_ORIGIN,
                Objects.requireNonNull(file, "file"),
                options);
    }

    private static SketchRegion regionOf(Sketch sketch) {
        Objects.requireNonNull(sketch, "sketch");
        if (sketch.kind() == SketchKind.SCALABLE_BLOOM) {
            throw new IllegalArgumentException("sketch kind = " + sketch.kind()
                    + ", a directory of files with no single image; export each link, or build a one-file kind");
        }
        SketchRegion region = SketchInternals.region(sketch);
        if (region.isClosed()) {
            throw new IllegalStateException(sketch.kind() + " sketch is closed");
        }
        return region;
    }
}
