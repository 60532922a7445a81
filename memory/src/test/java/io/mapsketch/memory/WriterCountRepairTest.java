package io.mapsketch.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mapsketch.testing.ChildJvm;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A writer count that cannot be right (negative, as a writer whose lock was released under it
 * leaves, or writers registered that hold no lock) is repaired by the next writer that holds the
 * writer lock alone, which reports what it found; until then the file still opens.
 */
class WriterCountRepairTest {

    @TempDir
    Path dir;

    private Path fileWithWriterCount(int writers) throws IOException {
        Path file = SketchFiles.create(dir.resolve("count.sketch"), SketchFiles.header(TestKinds.COUNT_MIN, 4096));
        writeWriterCount(file, writers);
        return file;
    }

    /** Sets the live line's writer count and clears the clean-close flag, as another program could. */
    private static void writeWriterCount(Path file, int writers) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ByteBuffer live = ByteBuffer.allocate(8)
                    .order(ByteOrder.LITTLE_ENDIAN)
                    .putInt(0, writers)
                    .putInt(4, 0);
            channel.write(live, SketchFileLayout.WRITERS_OFFSET);
        }
    }

    @Test
    void aNegativeCountOpensAndTheNextSoleWriterRepairsIt() throws IOException {
        Path file = fileWithWriterCount(-1);
        try (SketchRegion reader = SketchRegions.open(file, RegionMode.READ_ONLY)) {
            assertEquals(-1, reader.attachedWriters(), "a reader sees the count as found");
            assertEquals(OptionalInt.empty(), reader.repairedWriterCount());
        }
        try (SketchRegion writer = SketchRegions.open(file, RegionMode.SHARED)) {
            assertEquals(OptionalInt.of(-1), writer.repairedWriterCount());
            assertFalse(writer.wasCleanlyClosed());
            assertEquals(1, writer.attachedWriters());
        }
        try (SketchRegion next = SketchRegions.open(file, RegionMode.EXCLUSIVE)) {
            assertEquals(OptionalInt.empty(), next.repairedWriterCount());
            assertTrue(next.wasCleanlyClosed(), "the repairing writer's close was clean");
        }
    }

    @Test
    void writersRegisteredWithoutALockAreRepaired() throws IOException {
        Path file = fileWithWriterCount(3);
        try (SketchRegion writer = SketchRegions.open(file, RegionMode.EXCLUSIVE)) {
            assertEquals(OptionalInt.of(3), writer.repairedWriterCount());
            assertEquals(1, writer.attachedWriters());
        }
    }

    /**
     * A writer that joins a writer of another process cannot prove the count wrong and leaves it; the
     * next writer alone repairs it.
     */
    @Test
    void aWriterThatJoinsOthersLeavesTheCountToTheNextSoleWriter() throws Exception {
        Path file = fileWithWriterCount(0);
        try (ChildJvm holder = ChildJvm.start(dir, RegionWorker.class, "hold", file.toString(), "SHARED")) {
            assertEquals("held SHARED", holder.readLine());
            writeWriterCount(file, -5);
            try (SketchRegion joined = SketchRegions.open(file, RegionMode.SHARED)) {
                assertEquals(OptionalInt.empty(), joined.repairedWriterCount());
                assertEquals(-4, joined.attachedWriters());
            }
        }
        try (SketchRegion alone = SketchRegions.open(file, RegionMode.SHARED)) {
            assertEquals(OptionalInt.of(-5), alone.repairedWriterCount());
        }
    }
}
