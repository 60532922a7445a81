package io.mapsketch.interop;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Objects;

/**
 * The file side of every foreign format's entry point: reading a source of foreign bytes (whole, or
 * mapped for a parser), replacing a destination in one step.
 */
final class ForeignFiles {

    private ForeignFiles() {}

    /** A codec's reading of foreign bytes. */
    @FunctionalInterface
    interface Parser<T> {
        T parse(MemorySegment bytes, Path source) throws ForeignSketchException;
    }

    /**
     * The bytes of a source file, refused unread if it is longer than any sketch of the format.
     *
     * @param longest the longest sketch of the format, in bytes
     * @param what the format's sketches as the message names them, e.g. "Redis HyperLogLog string"
     * @throws ForeignSketchException naming the source if it is too long
     */
    static byte[] read(Path source, String format, long longest, String what) throws IOException {
        long size = Files.size(Objects.requireNonNull(source, "source"));
        if (size > longest) {
            throw new ForeignSketchException(
                    format,
                    source,
                    longest,
                    "the file is " + size + " bytes, longer than any " + what + " (at most " + longest + ")");
        }
        return Files.readAllBytes(source);
    }

    /**
     * Parses the whole of a file, mapped read-only for the call (so a file longer than an array is read
     * as far as its fields say, and refused for its length, not for the array).
     */
    static <T> T parse(Path source, Parser<T> parser) throws IOException {
        Objects.requireNonNull(source, "source");
        try (Arena arena = Arena.ofConfined();
                FileChannel channel = FileChannel.open(source, StandardOpenOption.READ)) {
            long size = channel.size();
            MemorySegment bytes = size == 0
                    ? MemorySegment.ofArray(new byte[0])
                    : channel.map(FileChannel.MapMode.READ_ONLY, 0, size, arena);
            return parser.parse(bytes, source);
        }
    }

    /**
     * Writes {@code bytes} to {@code destination}, replacing an existing file in one step: the bytes go to
     * a temporary file beside it first, so that an error leaves the old file as it was.
     */
    static void replace(Path destination, byte[] bytes) throws IOException {
        Path target = destination.toAbsolutePath();
        Path temporary = Files.createTempFile(target.getParent(), "." + target.getFileName() + ".", ".exporting");
        try {
            Files.write(temporary, bytes);
            Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(temporary);
        }
    }
}
