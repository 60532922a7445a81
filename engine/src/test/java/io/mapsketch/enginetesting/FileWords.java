package io.mapsketch.enginetesting;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.function.Consumer;

/** Reads and writes of little-endian words at a file's offsets, for tests that damage a sketch file. */
public final class FileWords {

    private FileWords() {}

    /** The 64-bit word at byte {@code at} of the file. */
    public static long readLong(Path file, long at) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer buffer = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
            channel.read(buffer, at);
            return buffer.flip().getLong();
        }
    }

    /** Writes {@code length} bytes that {@code bytes} puts, little-endian, at byte {@code at} of the file. */
    public static void write(Path file, long at, Consumer<ByteBuffer> bytes, int length) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
        bytes.accept(buffer);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.write(buffer.flip(), at);
        }
    }
}
