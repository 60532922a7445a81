package io.mapsketch.interop;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Objects;

/** The file side of every foreign format's entry point: reading a source of foreign bytes, replacing a destination. */
final class ForeignFiles {

    private ForeignFiles() {}

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
