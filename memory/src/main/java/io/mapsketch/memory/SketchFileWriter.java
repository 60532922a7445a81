package io.mapsketch.memory;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/**
 * Writes a new sketch file so that it appears at its name complete or not at all: the header and
 * the payload, every byte of it the sketch kind's empty value (zero for most kinds), go to a temporary file in the same directory, which is forced and then
 * linked (or, when overwriting, renamed) into place.
 */
final class SketchFileWriter {

    private static final int FILL_CHUNK = 1 << 20;

    private SketchFileWriter() {
    }

    static void writeNew(Path file, SketchHeader header, byte payloadFill, CreateOption... options) throws IOException {
        boolean overwrite = Arrays.asList(options).contains(CreateOption.OVERWRITE_EXISTING);
        Path target = file.toAbsolutePath();
        if (!overwrite && Files.exists(target)) {
            throw alreadyExists(file);
        }
        Path temporary = Files.createTempFile(target.getParent(), "." + target.getFileName() + ".", ".creating");
        try {
            write(temporary, header, payloadFill);
            if (overwrite) {
                Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } else {
                linkWithoutReplacing(temporary, target, file);
            }
        } finally {
            Files.deleteIfExists(temporary);
        }
    }

    private static void write(Path temporary, SketchHeader header, byte payloadFill) throws IOException {
        byte[] page = new byte[SketchFileLayout.HEADER_LENGTH];
        HeaderCodec.writeNew(header, MemorySegment.ofArray(page));
        try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.WRITE)) {
            writeFully(channel, ByteBuffer.wrap(page), 0);
            ByteBuffer fill = ByteBuffer.allocateDirect(FILL_CHUNK);
            if (payloadFill != 0) {
                MemorySegment.ofBuffer(fill).fill(payloadFill);
            }
            long end = header.fileLength();
            for (long position = header.payloadOffset(); position < end; position += FILL_CHUNK) {
                fill.clear().limit((int) Math.min(FILL_CHUNK, end - position));
                writeFully(channel, fill, position);
            }
            channel.force(true);
        }
    }

    private static void writeFully(FileChannel channel, ByteBuffer buffer, long position) throws IOException {
        long at = position;
        while (buffer.hasRemaining()) {
            at += channel.write(buffer, at);
        }
    }

    /** A hard link fails if the name exists, so two creators racing cannot both win. */
    private static void linkWithoutReplacing(Path temporary, Path target, Path file) throws IOException {
        try {
            Files.createLink(target, temporary);
        } catch (FileAlreadyExistsException e) {
            throw alreadyExists(file);
        } catch (UnsupportedOperationException e) {
            Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE);
        }
    }

    private static FileAlreadyExistsException alreadyExists(Path file) {
        return new FileAlreadyExistsException(file.toString(), null,
                "a file exists there; pass CreateOption.OVERWRITE_EXISTING to replace it");
    }
}
