package io.mapsketch.memory;

import static io.mapsketch.memory.SketchFileLayout.*;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Iterator;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.function.LongSupplier;

/**
 * Sketch file images: the bytes of a complete sketch file held in memory instead of on disk, for systems
 * that move sketches as values (a column of a data frame, a message). {@link #write} takes the image of a
 * region, {@link #open} makes an anonymous region of an image after validating it as {@link SketchRegions#open}
 * validates a file, and {@link #create} writes an image to a new file with the crash-safe creation of
 * {@link SketchRegions#create}.
 *
 * <p>An image is what a file created with the region's header and closed by its only writer holds: the static
 * fields with the given creation time, the items added and total weight in the live line (no counter slot in
 * use, no writer attached, the clean-close flag set), the summary line, and the payload's digests sealed at
 * writer generation 0. So equal sketches made at equal creation times have equal images.
 */
public final class SketchImages {

    /** The longest image: a Java array's length. */
    public static final long MAX_IMAGE_LENGTH = Integer.MAX_VALUE - 8;

    private static final long SEALED_AT_GENERATION_ZERO = 1;
    /** Largest slice of a piece written at once: a {@code ByteBuffer} holds at most 2^31 - 1 bytes. */
    private static final long WRITE_STEP = 1 << 30;

    private SketchImages() {}

    /**
     * Returns the image of a region. Writers that update the region meanwhile leave a mix of before and after
     * in the payload, as a copy of the file would. Cost: one copy and one CRC32C pass of the payload.
     *
     * @param region an open region, of a file or anonymous
     * @param createdMillis the creation time the image records, milliseconds since the epoch
     * @return a new array of {@code region.header().fileLength()} bytes
     * @throws IllegalArgumentException if the file is longer than {@link #MAX_IMAGE_LENGTH}
     * @throws IllegalStateException if the region is closed
     */
    public static byte[] write(SketchRegion region, long createdMillis) {
        SketchHeader live = region.header();
        long length = live.fileLength();
        if (length > MAX_IMAGE_LENGTH) {
            throw new IllegalArgumentException("sketch file length = " + length + " bytes, an image holds at most "
                    + MAX_IMAGE_LENGTH + " (the longest array)");
        }
        SketchHeader header = new SketchHeader(
                live.kindId(),
                live.hashScheme(),
                live.hashSeed(),
                live.parameters(),
                live.payloadOffset(),
                live.payloadLength(),
                createdMillis,
                live.formatVersion());
        byte[] bytes = new byte[(int) length];
        MemorySegment image = MemorySegment.ofArray(bytes);
        MemorySegment page = image.asSlice(0, HEADER_LENGTH);
        long items = region.itemsAdded();
        long weight = region.totalWeight();
        MemorySegment payload = image.asSlice(header.payloadOffset(), header.payloadLength());
        MemorySegment.copy(region.payload().segment(), 0, payload, 0, header.payloadLength());
        writePage(
                page,
                header,
                items,
                weight,
                PayloadChecksum.kept(header) ? PayloadChecksum.digests(payload, () -> true) : null);
        if (header.hasSummaryLine()) {
            MemorySegment.copy(region.summaryLine().segment(), 0, image, SUMMARY_OFFSET, CACHE_LINE);
        }
        return bytes;
    }

    /**
     * Writes the image of a sketch whose payload is never whole in memory to a new file, with the crash-safe
     * creation of {@link SketchRegions#create}: the header page of {@code header} (its creation time as given,
     * the counters as given, the summary line zero, the payload's digests sealed at writer generation 0) and
     * the payload, the concatenation of {@code pieces} in order. The file is byte for byte what {@link #write}
     * gives of a region with this header, these counters, a zero summary line and this payload. Cost: one
     * write and one CRC32C pass of the payload, a piece at a time, and one {@code fsync}.
     *
     * @param header the sketch's static header
     * @param itemsAdded the items counter the image records, asked for once after the last piece
     * @param totalWeight the weight counter the image records, asked for once after the last piece
     * @param pieces the payload's bytes, in file order; each is written before the next is asked for
     * @param file where the sketch file goes
     * @param flags what to do with a file already at the path, and the new file's permissions
     * @throws IllegalArgumentException if the pieces do not add up to the header's payload length (nothing
     *     appears at {@code file})
     * @throws java.nio.file.FileAlreadyExistsException if a file exists and overwriting was not asked for
     * @throws FileFault as {@link SketchRegions#create} throws
     * @throws IOException if the file cannot be written
     */
    public static void create(
            SketchHeader header,
            LongSupplier itemsAdded,
            LongSupplier totalWeight,
            Iterator<MemorySegment> pieces,
            Path file,
            CreateFlag... flags)
            throws IOException {
        Objects.requireNonNull(header, "header");
        Objects.requireNonNull(pieces, "pieces");
        SketchFileWriter.writeNew(
                file,
                temporary -> {
                    try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.WRITE)) {
                        PayloadChecksum.Running digests = new PayloadChecksum.Running(header.payloadLength());
                        long position = header.payloadOffset();
                        while (pieces.hasNext()) {
                            MemorySegment piece = pieces.next();
                            digests.update(piece);
                            for (long at = 0; at < piece.byteSize(); at += WRITE_STEP) {
                                long step = Math.min(WRITE_STEP, piece.byteSize() - at);
                                SketchFileWriter.writeFully(
                                        channel, piece.asSlice(at, step).asByteBuffer(), position + at);
                            }
                            position += piece.byteSize();
                        }
                        int[] sums = digests.digests();
                        byte[] page = new byte[HEADER_LENGTH];
                        writePage(
                                MemorySegment.ofArray(page),
                                header,
                                itemsAdded.getAsLong(),
                                totalWeight.getAsLong(),
                                PayloadChecksum.kept(header) ? sums : null);
                        SketchFileWriter.writeFully(channel, ByteBuffer.wrap(page), 0);
                        channel.force(true);
                    }
                },
                flags);
    }

    /** Writes an image's header page: the static fields, the counters and, if kept, the digests sealed. */
    private static void writePage(MemorySegment page, SketchHeader header, long items, long weight, int[] digests) {
        HeaderCodec.writeNew(header, page);
        page.set(HeaderCodec.LONG, ITEMS_OFFSET, items);
        page.set(HeaderCodec.LONG, WEIGHT_OFFSET, weight);
        if (digests != null) {
            for (int i = 0; i < digests.length; i++) {
                page.set(HeaderCodec.INT, DIGESTS_OFFSET + 4L * i, digests[i]);
            }
            page.set(HeaderCodec.LONG, DIGEST_STAMP_OFFSET, SEALED_AT_GENERATION_ZERO);
        }
    }

    /**
     * Validates an image's header as {@link SketchRegions#open} validates a file's, and its payload against
     * the digests if they are sealed and current, and returns the header.
     *
     * @param image the image's bytes
     * @param origin the name messages give the image
     * @param kinds accepts or refuses the header's kind id
     * @return the image's static header
     * @throws FileFault {@code CORRUPT} naming {@code origin} and the field or payload chunk at fault;
     *     {@code INCOMPATIBLE} if it is of a newer format or an unknown hash scheme
     * @throws IOException if {@code kinds} refuses the kind
     */
    public static SketchHeader read(MemorySegment image, Path origin, SketchRegions.KindCheck kinds)
            throws IOException {
        Objects.requireNonNull(image, "image");
        Objects.requireNonNull(origin, "origin");
        long length = image.byteSize();
        MemorySegment page = copyOf(image.asSlice(0, Math.min(length, HEADER_LENGTH)));
        SketchHeader header = HeaderCodec.read(page, origin, length, kinds);
        if (PayloadChecksum.kept(header) && sealedAndCurrent(page)) {
            int[] digests =
                    PayloadChecksum.digests(image.asSlice(header.payloadOffset(), header.payloadLength()), () -> true);
            for (int i = 0; i < digests.length; i++) {
                int stored = page.get(HeaderCodec.INT, DIGESTS_OFFSET + 4L * i);
                if (stored != digests[i]) {
                    throw new FileFault(
                            FileFault.Reason.CORRUPT,
                            origin,
                            "payload chunk " + i + " (of " + digests.length + ", "
                                    + PayloadChecksum.chunkBytes(header.payloadLength())
                                    + " bytes each) does not match its digest: the image is damaged");
                }
            }
        }
        return header;
    }

    /**
     * Makes an anonymous region holding a copy of an image, validated as {@link #read} validates it. The region
     * answers {@link SketchRegion#wasCleanlyClosed()} from the image's clean-close flag.
     *
     * @param image the image's bytes; not retained
     * @param origin the name messages give the image
     * @param mode any mode: {@code READ_ONLY} refuses writes to the copy
     * @param kinds accepts or refuses the header's kind id
     * @return the region, freed by its {@code close()}
     * @throws IOException as {@link #read} throws
     */
    public static SketchRegion open(MemorySegment image, Path origin, RegionMode mode, SketchRegions.KindCheck kinds)
            throws IOException {
        Objects.requireNonNull(mode, "mode");
        SketchHeader header = read(image, origin, kinds);
        Arena arena = Arena.ofShared();
        MemorySegment memory = arena.allocate(header.fileLength(), CACHE_LINE);
        MemorySegment.copy(image, 0, memory, 0, header.fileLength());
        memory.set(HeaderCodec.INT, WRITERS_OFFSET, 0);
        boolean clean = (memory.get(HeaderCodec.INT, FLAGS_OFFSET) & FLAG_CLEAN_CLOSE) != 0;
        return new SketchRegion(
                null, mode, header, arena, memory, null, new SketchRegions.Registration(clean, OptionalInt.empty()));
    }

    /**
     * Writes an image to a new sketch file, validated as {@link #read} validates it, with the crash-safe creation
     * of {@link SketchRegions#create}: the file appears complete, or not at all. Opening the file then finds
     * exactly the image.
     *
     * @param image the image's bytes
     * @param origin the name messages give the image
     * @param file where the sketch file goes
     * @param kinds accepts or refuses the header's kind id
     * @param flags what to do with a file already at the path, and the new file's permissions
     * @throws java.nio.file.FileAlreadyExistsException if a file exists and overwriting was not asked for
     * @throws FileFault as {@link #read} throws, or as {@link SketchRegions#create} throws
     * @throws IOException if the file cannot be written
     */
    public static void create(
            MemorySegment image, Path origin, Path file, SketchRegions.KindCheck kinds, CreateFlag... flags)
            throws IOException {
        SketchHeader header = read(image, origin, kinds);
        if (image.get(HeaderCodec.INT, WRITERS_OFFSET) != 0) {
            throw HeaderCodec.corrupt(
                    origin,
                    "attached writers",
                    WRITERS_OFFSET,
                    "0 (an image has no writer)",
                    Integer.toString(image.get(HeaderCodec.INT, WRITERS_OFFSET)));
        }
        SketchFileWriter.writeNew(
                file,
                header,
                (byte) 0,
                temporary -> {
                    try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.WRITE)) {
                        ByteBuffer bytes = image.asByteBuffer();
                        long position = 0;
                        while (bytes.hasRemaining()) {
                            position += channel.write(bytes, position);
                        }
                    }
                },
                flags);
    }

    private static boolean sealedAndCurrent(MemorySegment page) {
        long stamp = page.get(HeaderCodec.LONG, DIGEST_STAMP_OFFSET);
        long generation = page.get(HeaderCodec.LONG, GENERATION_OFFSET);
        int flags = page.get(HeaderCodec.INT, FLAGS_OFFSET);
        int writers = page.get(HeaderCodec.INT, WRITERS_OFFSET);
        return (stamp & 1) != 0 && stamp >>> 1 == generation && (flags & FLAG_CLEAN_CLOSE) != 0 && writers == 0;
    }

    /** A heap copy of a slice, so that the header is read from bytes no other thread changes. */
    private static MemorySegment copyOf(MemorySegment slice) {
        byte[] copy = new byte[(int) slice.byteSize()];
        MemorySegment.copy(slice, ValueLayout.JAVA_BYTE, 0, copy, 0, copy.length);
        return MemorySegment.ofArray(copy);
    }
}
