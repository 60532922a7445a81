package io.mapsketch.interop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import io.mapsketch.IncompatibleSketchException;
import io.mapsketch.IncompatibleSketchFileException;
import io.mapsketch.OpenMode;
import io.mapsketch.SketchKind;
import io.mapsketch.cardinality.CardinalityEstimator;
import io.mapsketch.cardinality.HyperLogLog;
import io.mapsketch.internal.SketchInternals;
import io.mapsketch.membership.BloomFilter;
import io.mapsketch.memory.HashScheme;
import io.mapsketch.memory.RegionMode;
import io.mapsketch.memory.SketchHeader;
import io.mapsketch.memory.SketchRegions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Redis codec on bytes made here: every fault of a hostile string is refused with its offset and
 * leaves no file; registers survive an export and an import; sketches of another scheme, precision or
 * seed are refused where they cannot work. Agreement with a real redis-server is {@link RedisServerTest}.
 */
class RedisHyperLogLogTest {

    @TempDir
    Path dir;

    private static byte[] header(int encoding) {
        byte[] header = new byte[RedisHllBytes.HEADER];
        System.arraycopy("HYLL".getBytes(StandardCharsets.US_ASCII), 0, header, 0, 4);
        header[4] = (byte) encoding;
        return header;
    }

    private static byte[] sparse(int... opcodes) {
        byte[] bytes = Arrays.copyOf(header(1), RedisHllBytes.HEADER + opcodes.length);
        for (int i = 0; i < opcodes.length; i++) {
            bytes[RedisHllBytes.HEADER + i] = (byte) opcodes[i];
        }
        return bytes;
    }

    /** XZERO of {@code run} registers, 1 to 16,384: two bytes. */
    private static int[] xzero(int run) {
        return new int[] {0x40 | ((run - 1) >>> 8), (run - 1) & 0xFF};
    }

    private static int[] concat(int[]... parts) {
        return Stream.of(parts).flatMapToInt(Arrays::stream).toArray();
    }

    private void assertRefused(byte[] bytes, long offset, String fault) throws IOException {
        Path file = dir.resolve("refused.hll");
        ForeignSketchException refused = assertThrows(
                ForeignSketchException.class, () -> RedisHyperLogLog.importFrom(bytes, file, OpenMode.EXCLUSIVE));
        assertEquals(offset, refused.offset(), refused.getMessage());
        assertEquals("redis-hll", refused.format());
        assertTrue(refused.getMessage().contains(fault), refused.getMessage());
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(0, left.count(), "nothing is written on a fault");
        }
        Path source = dir.resolve("source.bin");
        Files.write(source, bytes);
        ForeignSketchException fromFile = assertThrows(
                ForeignSketchException.class, () -> RedisHyperLogLog.importFrom(source, file, OpenMode.EXCLUSIVE));
        assertEquals(source, fromFile.file());
        assertTrue(fromFile.getMessage().startsWith(source.toString()), fromFile.getMessage());
        assertTrue(Files.notExists(file));
        Files.delete(source);
    }

    @Test
    void hostileHeadersAreRefusedAtTheirOffset() throws IOException {
        assertRefused(new byte[0], 0, "inside the 16-byte header");
        assertRefused(Arrays.copyOf(header(0), 15), 15, "inside the 16-byte header");
        byte[] magic = header(1);
        magic[2] = 'X';
        assertRefused(magic, 2, "magic");
    }

    @Test
    void encodingsReservedBytesAndDenseLengthsAreChecked() throws IOException {
        byte[] encoding = sparse(xzero(16384));
        encoding[4] = 2;
        assertRefused(encoding, 4, "encoding 2");
        byte[] reserved = sparse(xzero(16384));
        reserved[6] = 1;
        assertRefused(reserved, 6, "reserved header byte 6");
        assertRefused(
                Arrays.copyOf(header(0), RedisHllBytes.DENSE_LENGTH - 1), RedisHllBytes.DENSE_LENGTH - 1, "dense");
        assertRefused(Arrays.copyOf(header(0), RedisHllBytes.DENSE_LENGTH + 1), RedisHllBytes.DENSE_LENGTH, "dense");
        byte[] tooHigh = RedisHllBytes.encodeDense(new byte[RedisHllBytes.REGISTERS]);
        tooHigh[16 + 2] = (byte) (52 << 2); // register 3: bits 18..23, the top six bits of byte 2 of the registers
        assertRefused(tooHigh, 16 + 2, "register 3 holds 52");
    }

    @Test
    void sparseRunsThatOverflowOrFallShortAreRefused() throws IOException {
        assertRefused(sparse(concat(xzero(16384), new int[] {0x00})), 18, "goes past the last");
        assertRefused(sparse(concat(xzero(16383), new int[] {0x81})), 18, "goes past the last");
        assertRefused(sparse(concat(xzero(16380), new int[] {0x05})), 18, "goes past the last");
        assertRefused(sparse(concat(xzero(16383))), 18, "cover 16383 registers");
        assertRefused(sparse(), 16, "cover 0 registers");
        assertRefused(sparse(concat(xzero(100), new int[] {0x41})), 18, "XZERO opcode is cut off");
    }

    @Test
    void sparseOpcodesDecodeToTheirRegisters() throws IOException {
        // Redis's documented example: registers 1000, 1020 and 1021 hold 2, 3, 3.
        byte[] bytes = sparse(concat(xzero(1000), new int[] {0x80 | (1 << 2), 18, 0x80 | (2 << 2) | 1}, xzero(15362)));
        byte[] registers = RedisHllBytes.decode(bytes, null);
        byte[] expected = new byte[RedisHllBytes.REGISTERS];
        expected[1000] = 2;
        expected[1020] = 3;
        expected[1021] = 3;
        assertArrayEquals(expected, registers);
        try (HyperLogLog sketch = RedisHyperLogLog.importFrom(bytes, dir.resolve("a.hll"), OpenMode.EXCLUSIVE)) {
            assertEquals(CardinalityEstimator.REDIS_PFCOUNT, sketch.estimator());
            assertEquals(3, sketch.estimate());
            assertArrayEquals(RedisHllBytes.encodeDense(expected), RedisHyperLogLog.exportTo(sketch));
        }
    }

    @Test
    void registersSurviveExportAndImport() {
        qt().withFixedSeed(53L)
                .withExamples(40)
                .forAll(
                        lists().of(integers().between(0, 51)).ofSizeBetween(0, 300),
                        integers().between(0, 16383))
                .checkAssert((values, start) -> {
                    byte[] registers = new byte[RedisHllBytes.REGISTERS];
                    for (int i = 0; i < values.size(); i++) {
                        registers[(start + i * 53) % registers.length] = (byte) (int) values.get(i);
                    }
                    byte[] dense = RedisHllBytes.encodeDense(registers);
                    assertEquals(RedisHllBytes.DENSE_LENGTH, dense.length);
                    assertEquals((byte) 0x80, dense[15], "the cached cardinality is marked stale");
                    try {
                        assertArrayEquals(registers, RedisHllBytes.decode(dense, null));
                        Path file = Files.createTempFile(dir, "round", ".hll");
                        try (HyperLogLog sketch = RedisHyperLogLog.importFrom(
                                dense, file, OpenMode.SHARED, io.mapsketch.CreateOption.OVERWRITE_EXISTING)) {
                            assertArrayEquals(dense, RedisHyperLogLog.exportTo(sketch));
                        }
                        try (HyperLogLog reopened = HyperLogLog.open(file, OpenMode.READ_ONLY)) {
                            assertArrayEquals(dense, RedisHyperLogLog.exportTo(reopened));
                            assertEquals(CardinalityEstimator.REDIS_PFCOUNT, reopened.estimator());
                        }
                        Files.delete(file);
                    } catch (IOException e) {
                        throw new AssertionError(e);
                    }
                });
    }

    @Test
    void sketchesThatDoNotHashAsRedisAreNotExported() throws IOException {
        try (HyperLogLog native14 = HyperLogLog.builder().precision(14).createAnonymous(OpenMode.EXCLUSIVE)) {
            IllegalArgumentException refused =
                    assertThrows(IllegalArgumentException.class, () -> RedisHyperLogLog.exportTo(native14));
            assertTrue(refused.getMessage().contains("XXH3_64"), refused.getMessage());
        }
        try (HyperLogLog dataSketches =
                HyperLogLog.builder().precision(14).dataSketchesHashing().createAnonymous(OpenMode.EXCLUSIVE)) {
            IllegalArgumentException refused =
                    assertThrows(IllegalArgumentException.class, () -> RedisHyperLogLog.exportTo(dataSketches));
            assertTrue(refused.getMessage().contains("DATASKETCHES_MURMUR3_128"), refused.getMessage());
            assertFalse(refused.getMessage().contains("XXH3_64"), refused.getMessage());
        }
        try (HyperLogLog otherSeed =
                HyperLogLog.builder().precision(14).redisHashing().seed(5).createAnonymous(OpenMode.EXCLUSIVE)) {
            IllegalArgumentException refused =
                    assertThrows(IllegalArgumentException.class, () -> RedisHyperLogLog.exportTo(otherSeed));
            assertTrue(refused.getMessage().contains("0xadc83b19"), refused.getMessage());
        }
    }

    @Test
    void theRedisSchemeIsRefusedAtAnotherPrecisionAndInAnotherKind() throws IOException {
        IllegalArgumentException precision = assertThrows(
                IllegalArgumentException.class,
                () -> HyperLogLog.builder()
                        .precision(12)
                        .redisHashing()
                        .create(dir.resolve("p12.hll"), OpenMode.EXCLUSIVE));
        assertTrue(
                precision.getMessage().contains("REDIS_HLL")
                        && precision.getMessage().contains("HYPERLOGLOG"),
                precision.getMessage());
        assertTrue(Files.notExists(dir.resolve("p12.hll")));

        Path bloom = dir.resolve("redis.bloom");
        try (BloomFilter template =
                BloomFilter.builder().expectedItems(100).falsePositiveRate(0.01).createAnonymous(OpenMode.EXCLUSIVE)) {
            SketchHeader header = SketchInternals.region(template).header();
            SketchHeader redis = SketchHeader.forNewSketch(
                            SketchKind.BLOOM.id(), HashScheme.REDIS_HLL, 0, header.parameters(), header.payloadLength())
                    .withFormatVersion(header.formatVersion());
            SketchRegions.create(bloom, redis, RegionMode.EXCLUSIVE).close();
        }
        IncompatibleSketchFileException refused =
                assertThrows(IncompatibleSketchFileException.class, () -> BloomFilter.open(bloom, OpenMode.READ_ONLY));
        assertTrue(
                refused.getMessage().contains("REDIS_HLL")
                        && refused.getMessage().contains("BLOOM"),
                refused.getMessage());
    }

    @Test
    void sketchesOfTwoSchemesDoNotMerge() throws IOException {
        try (HyperLogLog redis =
                        HyperLogLog.builder().precision(14).redisHashing().createAnonymous(OpenMode.EXCLUSIVE);
                HyperLogLog native14 = HyperLogLog.builder()
                        .precision(14)
                        .seed(HyperLogLog.REDIS_SEED)
                        .createAnonymous(OpenMode.EXCLUSIVE)) {
            IncompatibleSketchException refused =
                    assertThrows(IncompatibleSketchException.class, () -> redis.merge(native14));
            assertTrue(
                    refused.getMessage().contains("hash scheme: REDIS_HLL here, XXH3_64 in the other"),
                    refused.getMessage());
            assertThrows(IncompatibleSketchException.class, () -> native14.mergeFolded(redis));
            assertThrows(IncompatibleSketchException.class, () -> HyperLogLog.estimateUnion(redis, native14));
        }
    }

    @Test
    void registersHandedToTheBuilderAreChecked() {
        IllegalArgumentException length = assertThrows(
                IllegalArgumentException.class,
                () -> HyperLogLog.builder().precision(4).registers(new byte[15]).createAnonymous(OpenMode.EXCLUSIVE));
        assertTrue(length.getMessage().contains("registers.length = 15"), length.getMessage());
        byte[] high = new byte[16];
        high[9] = 62;
        IllegalArgumentException value = assertThrows(
                IllegalArgumentException.class,
                () -> HyperLogLog.builder().precision(4).registers(high).createAnonymous(OpenMode.EXCLUSIVE));
        assertTrue(value.getMessage().contains("registers[9] = 62"), value.getMessage());
    }
}
