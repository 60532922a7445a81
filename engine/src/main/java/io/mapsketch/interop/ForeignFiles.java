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

/** The files of foreign bytes: read by mapping them, written in one step. */
final class ForeignFiles {

    private ForeignFiles() {}

    /** A codec's reading of foreign bytes. */
    @FunctionalInterface
    interface Parser<T> {
        T parse(MemorySegment bytes, Path source) throws ForeignSketchException;
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
     * Writes {@code bytes} to {@code destination}, replacing an existing file in one step: the bytes go
     * to a temporary file beside it first, so an existing file is left as it was if anything fails.
     */
    static void writeAtomically(byte[] bytes, Path destination) throws IOException {
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
