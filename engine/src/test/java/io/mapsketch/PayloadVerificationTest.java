package io.mapsketch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.doubles;
import static org.quicktheories.generators.SourceDSL.integers;

import io.mapsketch.PayloadVerification.State;
import io.mapsketch.cardinality.HyperLogLog;
import io.mapsketch.internal.Regions;
import io.mapsketch.membership.BloomFilter;
import io.mapsketch.membership.ScalableBloomFilter;
import io.mapsketch.memory.RegionMode;
import io.mapsketch.memory.SketchFileLayout;
import io.mapsketch.memory.SketchRegion;
import io.mapsketch.memory.SketchRegions;
import io.mapsketch.testing.ScalableLinkFiles;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every sketch answers {@link Sketch#verify()}: a payload byte damaged after a clean close, which the sketch
 * itself cannot notice (a Bloom filter then silently misses a key it holds), is named by its chunk; a
 * scalable filter verifies every link; files of format version 1 and anonymous sketches say that they have no
 * checksum.
 */
class PayloadVerificationTest {

    private static final long CHUNK = SketchFileLayout.MIN_CHUNK_BYTES;

    @TempDir
    Path dir;

    /** XORs {@code mask} into payload byte {@code offset} with plain file I/O, as damage from outside does. */
    static void flip(Path file, long offset, int mask) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer one = ByteBuffer.allocate(1);
            channel.read(one, SketchFileLayout.HEADER_LENGTH + offset);
            one.put(0, (byte) (one.get(0) ^ mask)).rewind();
            channel.write(one, SketchFileLayout.HEADER_LENGTH + offset);
        }
    }

    /** Verifies through the kind's own open, or the region's when the damage makes the kind refuse the file. */
    private static PayloadVerification verifyReadOnly(HostileFileTest.Kind kind, Path file) throws IOException {
        try (Sketch sketch = kind.opener().open(file, OpenMode.READ_ONLY)) {
            return sketch.verify();
        } catch (SketchFileException refusedByTheKind) {
            try (SketchRegion region = SketchRegions.open(file, RegionMode.READ_ONLY)) {
                return Regions.verify(region);
            }
        }
    }

    @Test
    void everyKindNamesTheChunkOfAByteDamagedAfterItsCleanClose() {
        qt().withFixedSeed(5L)
                .withExamples(45)
                .forAll(
                        integers().between(0, HostileFileTest.KINDS.size() - 1),
                        doubles().between(0, 1),
                        integers().between(0, 7))
                .checkAssert((index, where, bit) -> {
                    HostileFileTest.Kind kind = HostileFileTest.KINDS.get(index);
                    Path file = dir.resolve(kind.name() + ".sketch");
                    try {
                        long payloadLength;
                        try (Sketch sketch = kind.creator().apply(file)) {
                            kind.use().exercise(sketch);
                            payloadLength = sketch.memoryBytes();
                        }
                        assertEquals(State.OK, verifyReadOnly(kind, file).state(), kind.name());
                        long offset = Math.min(payloadLength - 1, (long) (where * payloadLength));
                        flip(file, offset, 1 << bit);
                        PayloadVerification damaged = verifyReadOnly(kind, file);
                        assertEquals(State.CORRUPT, damaged.state(), kind.name() + ": " + damaged.describe());
                        assertEquals(offset / CHUNK * CHUNK, damaged.from(), kind.name());
                        assertEquals(Math.min(payloadLength, damaged.from() + CHUNK), damaged.to(), kind.name());
                        Files.delete(file);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
    }

    /**
     * The promise that was broken: a flipped payload bit silently turns a present key absent, since opening
     * checks the header only. The filter still says nothing; verify names the damaged bytes.
     */
    @Test
    void aFlippedBitIsAFalseNegativeTheFilterCannotSeeAndVerifyNames() throws IOException {
        Path file = dir.resolve("one-key.bloom");
        try (BloomFilter filter = BloomFilter.builder()
                .expectedItems(100_000)
                .falsePositiveRate(0.01)
                .create(file, OpenMode.EXCLUSIVE)) {
            filter.add("alice@example.com");
        }
        byte[] bytes = Files.readAllBytes(file);
        int firstSet = SketchFileLayout.HEADER_LENGTH;
        while (bytes[firstSet] == 0) {
            firstSet++;
        }
        long offset = firstSet - SketchFileLayout.HEADER_LENGTH;
        flip(file, offset, Integer.lowestOneBit(bytes[firstSet] & 0xFF));
        try (BloomFilter filter = BloomFilter.open(file, OpenMode.READ_ONLY)) {
            assertFalse(filter.mightContain("alice@example.com"), "the key's first set bit is gone");
            assertTrue(filter.wasCleanlyClosed(), "and nothing else tells");
            PayloadVerification result = filter.verify();
            assertEquals(State.CORRUPT, result.state(), result.describe());
            assertEquals(offset / CHUNK * CHUNK, result.from());
            assertEquals(file, result.file());
        }
    }

    @Test
    void aScalableFilterVerifiesEveryLink() throws IOException {
        Path directory = dir.resolve("scalable");
        long[] keys = new SplittableRandom(11).longs(20_000).toArray();
        try (ScalableBloomFilter filter = ScalableBloomFilter.builder()
                .expectedItems(2_000)
                .falsePositiveRate(0.01)
                .create(directory, OpenMode.SHARED)) {
            filter.addAll(keys);
            assertTrue(filter.links() >= 3, "links: " + filter.links());
        }
        try (ScalableBloomFilter filter = ScalableBloomFilter.open(directory, OpenMode.READ_ONLY)) {
            assertEquals(State.OK, filter.verify().state());
        }
        Path link = ScalableLinkFiles.link(directory, 2);
        flip(link, 100, 0x10);
        try (ScalableBloomFilter filter = ScalableBloomFilter.open(directory, OpenMode.READ_ONLY)) {
            PayloadVerification result = filter.verify();
            assertEquals(State.CORRUPT, result.state(), result.describe());
            assertEquals(link, result.file(), "the damaged link is named");
            assertEquals(0, result.from());
        }
        ScalableBloomFilter.open(directory, OpenMode.EXCLUSIVE).close();
        try (ScalableBloomFilter filter = ScalableBloomFilter.open(directory, OpenMode.READ_ONLY)) {
            assertEquals(State.OK, filter.verify().state(), "every link's clean close recorded it anew");
        }
    }

    @Test
    void aVersionOneFileAndAnAnonymousSketchHaveNoChecksum() throws IOException {
        Path file = dir.resolve("v1.hll");
        try (InputStream golden = getClass().getResourceAsStream("/hll-v1-p10.sketch")) {
            Files.copy(golden, file);
        }
        try (HyperLogLog old = HyperLogLog.open(file, OpenMode.SHARED)) {
            old.add(-5L);
            old.force();
            PayloadVerification result = old.verify();
            assertEquals(State.NO_CHECKSUM, result.state());
            assertEquals("no checksum: format version 1", result.describe());
        }
        try (HyperLogLog anonymous = HyperLogLog.builder().precision(8).createAnonymous(OpenMode.SHARED)) {
            assertEquals(State.NOT_PERSISTED, anonymous.verify().state());
        }
    }
}
