package io.mapsketch.agrona;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;
import static org.quicktheories.generators.SourceDSL.strings;

import io.mapsketch.OpenMode;
import io.mapsketch.cardinality.HyperLogLog;
import io.mapsketch.frequency.CountMinSketch;
import io.mapsketch.frequency.HeavyHitter;
import io.mapsketch.frequency.TopK;
import io.mapsketch.membership.BlockedBloomFilter;
import io.mapsketch.membership.CountingBloomFilter;
import io.mapsketch.membership.CuckooFilter;
import io.mapsketch.membership.KeyNotPresentException;
import io.mapsketch.membership.MembershipFilter;
import io.mapsketch.similarity.MinHash;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.ExpandableDirectByteBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A buffer range is the key of its bytes in every sketch: the same answers as the byte-array, segment
 * and string forms, read in place wherever the buffer lies, and refused outside the buffer.
 */
class DirectBufferKeysTest {

    /** Bytes of a sketch file's header page, before its payload. */
    private static final int HEADER_BYTES = 4096;

    @TempDir
    Path dir;

    /** One item per row: slot 0 of a one-slot signature is a bijection of the item's hash. */
    @Test
    void buffersOverArraysDirectMemoryAndExpandableStorageHashAsTheirBytes() {
        qt().withFixedSeed(37L)
                .withExamples(500)
                .forAll(
                        strings().basicMultilingualPlaneAlphabet().ofLengthBetween(0, 300),
                        longs().all(),
                        integers().between(0, 9))
                .checkAssert((text, seed, pad) -> {
                    byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
                    byte[] padded = new byte[pad + utf8.length + 3];
                    System.arraycopy(utf8, 0, padded, pad, utf8.length);
                    ByteBuffer direct = ByteBuffer.allocateDirect(padded.length).put(padded);
                    ExpandableArrayBuffer expandable = new ExpandableArrayBuffer(8);
                    expandable.putBytes(pad, utf8);
                    try (MinHash rows = MinHash.builder()
                            .rows(5)
                            .signatureLength(1)
                            .seed(seed)
                            .createAnonymous(OpenMode.EXCLUSIVE)) {
                        rows.add(0, utf8, 0, utf8.length);
                        rows.add(1, text);
                        DirectBufferKeys.add(rows, 2, new UnsafeBuffer(padded, pad, utf8.length + 3), 0, utf8.length);
                        DirectBufferKeys.add(rows, 3, new UnsafeBuffer(direct), pad, utf8.length);
                        DirectBufferKeys.add(rows, 4, expandable, pad, utf8.length);
                        for (int row = 1; row < 5; row++) {
                            assertEquals(rows.signature(0), rows.signature(row), "row " + row);
                        }
                    } catch (IOException e) {
                        throw new AssertionError(e);
                    }
                });
    }

    @Test
    void everyKindOfBufferGivesItsBytesInPlaceOrACopyOfABareAddressWithoutNativeAccess() {
        byte[] key = "the bytes of one key".getBytes(StandardCharsets.UTF_8);
        int at = 7;
        ByteBuffer direct = ByteBuffer.allocateDirect(64);
        direct.put(at, key);
        UnsafeBuffer overDirect = new UnsafeBuffer(direct);
        ByteBuffer heap = ByteBuffer.allocate(80).position(5).slice();
        heap.put(at + 3, key);
        ExpandableDirectByteBuffer expandableDirect = new ExpandableDirectByteBuffer(16);
        expandableDirect.putBytes(at, key);
        UnsafeBuffer bareAddress = new UnsafeBuffer(overDirect.addressOffset(), 64);
        List<DirectBuffer> buffers = List.of(
                new UnsafeBuffer(withKeyAt(key, at + 2, 40), 2, 38),
                overDirect,
                new UnsafeBuffer(direct, 1, 50),
                new UnsafeBuffer(heap, 3, 60),
                expandableDirect,
                bareAddress);
        List<Integer> indices = List.of(at, at, at - 1, at, at, at);
        for (int b = 0; b < buffers.size(); b++) {
            DirectBuffer buffer = buffers.get(b);
            int index = indices.get(b);
            String name = buffer.getClass().getSimpleName() + " " + b;
            for (boolean viewAddresses : new boolean[] {true, false}) {
                MemorySegment bytes = DirectBufferKeys.bytes(buffer, index, key.length, viewAddresses);
                assertArrayEquals(key, bytes.toArray(ValueLayout.JAVA_BYTE), name);
                boolean copied = b == buffers.size() - 1 && !viewAddresses;
                byte first = buffer.getByte(index);
                ((MutableDirectBuffer) buffer).putByte(index, (byte) (first + 1));
                assertEquals(
                        copied ? first : (byte) (first + 1),
                        bytes.get(ValueLayout.JAVA_BYTE, 0),
                        name + (copied ? ": a copy" : ": a view of the buffer"));
                ((MutableDirectBuffer) buffer).putByte(index, first);
            }
        }
        direct.position(at + 1);
        assertArrayEquals(
                key,
                DirectBufferKeys.bytes(overDirect, at, key.length, false).toArray(ValueLayout.JAVA_BYTE),
                "a ByteBuffer whose position has passed the key: its bytes are still the key's");
    }

    @Test
    void rangesOutsideTheBufferAreRefusedBeforeTheSketchChanges() throws IOException {
        try (BlockedBloomFilter filter = BlockedBloomFilter.builder()
                .expectedItems(100)
                .falsePositiveRate(0.01)
                .createAnonymous(OpenMode.EXCLUSIVE)) {
            UnsafeBuffer four = new UnsafeBuffer(new byte[4]);
            assertThrows(IndexOutOfBoundsException.class, () -> DirectBufferKeys.add(filter, four, 2, 3));
            assertThrows(IndexOutOfBoundsException.class, () -> DirectBufferKeys.add(filter, four, -1, 2));
            assertThrows(IndexOutOfBoundsException.class, () -> DirectBufferKeys.mightContain(filter, four, 0, -1));
            UnsafeBuffer bare = new UnsafeBuffer(new UnsafeBuffer(ByteBuffer.allocateDirect(8)).addressOffset(), 8);
            assertThrows(IndexOutOfBoundsException.class, () -> DirectBufferKeys.bytes(bare, 4, 5));
            assertEquals(0, filter.itemsAdded());
            assertEquals(0, filter.fillRatio());
        }
    }

    @Test
    void filtersAddFindAndRemoveABufferKeyAsItsBytes() throws IOException {
        byte[] utf8 = "naïve café".getBytes(StandardCharsets.UTF_8);
        UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(utf8.length + 2));
        buffer.putBytes(2, utf8);
        try (BlockedBloomFilter blocked = BlockedBloomFilter.builder()
                        .expectedItems(1_000)
                        .falsePositiveRate(0.01)
                        .createAnonymous(OpenMode.SHARED);
                CountingBloomFilter counting = CountingBloomFilter.builder()
                        .expectedItems(1_000)
                        .falsePositiveRate(0.01)
                        .createAnonymous(OpenMode.EXCLUSIVE);
                CuckooFilter cuckoo = CuckooFilter.builder()
                        .expectedItems(1_000)
                        .falsePositiveRate(0.01)
                        .createAnonymous(OpenMode.EXCLUSIVE)) {
            for (MembershipFilter filter : List.<MembershipFilter>of(blocked, counting, cuckoo)) {
                assertFalse(DirectBufferKeys.mightContain(filter, buffer, 2, utf8.length), filter.toString());
                assertTrue(DirectBufferKeys.add(filter, buffer, 2, utf8.length));
                assertTrue(filter.mightContain("naïve café"));
                assertTrue(DirectBufferKeys.mightContain(filter, buffer, 2, utf8.length));
            }
            assertFalse(blocked.add(utf8, 0, utf8.length), "the same bits as the buffer's key");
            DirectBufferKeys.remove(counting, buffer, 2, utf8.length);
            assertFalse(counting.mightContain("naïve café"), "its one key removed, every counter is zero");
            DirectBufferKeys.remove(cuckoo, new UnsafeBuffer(utf8), 0, utf8.length);
            assertFalse(cuckoo.mightContain(utf8, 0, utf8.length));
            assertThrows(KeyNotPresentException.class, () -> DirectBufferKeys.remove(cuckoo, buffer, 2, utf8.length));
        }
    }

    @Test
    void everyKeyFormOfTheSameBytesFillsTheSameRegisters() throws IOException {
        String text = "grüße, 世界 🌍";
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        byte[] padded = new byte[utf8.length + 3];
        System.arraycopy(utf8, 0, padded, 2, utf8.length);
        Path fromString = dir.resolve("string.hll");
        Path fromBuffer = dir.resolve("buffer.hll");
        try (HyperLogLog strings = HyperLogLog.builder().precision(4).seed(7).create(fromString, OpenMode.EXCLUSIVE);
                HyperLogLog buffers = HyperLogLog.builder().precision(4).seed(7).create(fromBuffer, OpenMode.SHARED)) {
            assertTrue(strings.add(text));
            assertTrue(DirectBufferKeys.add(buffers, new UnsafeBuffer(padded), 2, utf8.length));
            assertFalse(DirectBufferKeys.add(buffers, new UnsafeBuffer(utf8), 0, utf8.length), "the same key again");
        }
        assertArrayEquals(payload(fromString), payload(fromBuffer));
    }

    @Test
    void everyKeyFormOfTheSameBytesHitsTheSameCounters() throws IOException {
        long key = 0x0102030405060708L;
        byte[] bytes = ByteBuffer.allocate(8)
                .order(ByteOrder.LITTLE_ENDIAN)
                .putLong(key)
                .array();
        try (CountMinSketch cms = CountMinSketch.builder()
                        .epsilon(0.01)
                        .delta(0.01)
                        .counterBits(32)
                        .seed(7)
                        .createAnonymous(OpenMode.EXCLUSIVE);
                Arena arena = Arena.ofConfined()) {
            MemorySegment segment = arena.allocate(20);
            MemorySegment.copy(bytes, 0, segment, ValueLayout.JAVA_BYTE, 5, 8);
            assertEquals(1, cms.add(key));
            assertEquals(3, cms.add(bytes, 0, 8, 2));
            assertEquals(4, cms.add(segment, 5, 8));
            assertEquals(7, DirectBufferKeys.add(cms, new UnsafeBuffer(bytes), 0, 8, 3));
            assertEquals(8, cms.add(bytes, 0, 8));
            assertEquals(9, DirectBufferKeys.add(cms, new UnsafeBuffer(bytes), 0, 8));
            assertEquals(14, cms.add(segment, 5, 8, 5));
            assertEquals(14, cms.estimate(key));
            assertEquals(14, DirectBufferKeys.estimate(cms, new UnsafeBuffer(bytes), 0, 8));
            assertEquals(7, cms.itemsAdded());
            assertEquals(14, cms.totalWeight());
        }
    }

    @Test
    void aSaturatedKeyIsSaturatedFromABuffer() throws IOException {
        byte[] one = ByteBuffer.allocate(8)
                .order(ByteOrder.LITTLE_ENDIAN)
                .putLong(1L)
                .array();
        try (CountMinSketch cms = CountMinSketch.builder()
                .epsilon(0.1)
                .delta(0.1)
                .counterBits(32)
                .seed(7)
                .createAnonymous(OpenMode.SHARED)) {
            cms.add(1L, cms.maxEstimate());
            assertTrue(cms.isSaturated(1L));
            assertTrue(DirectBufferKeys.isSaturated(cms, new UnsafeBuffer(one), 0, 8));
            assertFalse(DirectBufferKeys.isSaturated(cms, new UnsafeBuffer(new byte[8]), 0, 8));
        }
    }

    @Test
    void everyKeyFormOfTheSameBytesIsOneCandidate() throws IOException {
        byte[] utf8 = "naïve café".getBytes(StandardCharsets.UTF_8);
        try (TopK sketch =
                        TopK.builder().k(4).epsilon(0.001).delta(0.01).seed(7).createAnonymous(OpenMode.SHARED);
                Arena arena = Arena.ofConfined()) {
            MemorySegment segment = arena.allocate(utf8.length + 3);
            MemorySegment.copy(MemorySegment.ofArray(utf8), 0, segment, 3, utf8.length);
            UnsafeBuffer direct = new UnsafeBuffer(ByteBuffer.allocateDirect(utf8.length + 1));
            direct.putBytes(1, utf8);
            sketch.add("naïve café");
            sketch.add(utf8, 0, utf8.length);
            sketch.add(segment, 3, utf8.length, 2);
            DirectBufferKeys.add(sketch, direct, 1, utf8.length);
            DirectBufferKeys.add(sketch, new UnsafeBuffer(utf8), 0, utf8.length);
            sketch.add(0x0102_0304_0506_0708L, 3);
            List<HeavyHitter> top = sketch.top();
            assertEquals(2, top.size(), top.toString());
            assertEquals("naïve café", top.get(0).keyAsString());
            assertEquals(6, top.get(0).estimate());
            assertEquals(0x0102_0304_0506_0708L, top.get(1).keyAsLong());
            assertEquals(3, top.get(1).estimate());
        }
    }

    @Test
    void everyKeyFormOfTheSameBytesGivesTheSameSignature() throws IOException {
        String text = "grüße, 世界";
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        byte[] padded = new byte[utf8.length + 3];
        System.arraycopy(utf8, 0, padded, 2, utf8.length);
        try (MinHash minHash =
                MinHash.builder().rows(2).signatureLength(37).seed(7).createAnonymous(OpenMode.EXCLUSIVE)) {
            minHash.add(0, text);
            DirectBufferKeys.add(minHash, 1, new UnsafeBuffer(padded), 2, utf8.length);
            assertEquals(minHash.signature(0), minHash.signature(1));
            assertEquals(2, minHash.itemsAdded());
        }
    }

    private static byte[] withKeyAt(byte[] key, int at, int size) {
        byte[] array = new byte[size];
        System.arraycopy(key, 0, array, at, key.length);
        return array;
    }

    private static byte[] payload(Path file) throws IOException {
        byte[] all = Files.readAllBytes(file);
        return Arrays.copyOfRange(all, HEADER_BYTES, all.length);
    }
}
