package io.mapsketch.kernels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;
import org.quicktheories.generators.Generate;

/**
 * MurmurHash64A against SMHasher's verification value, which covers every tail length and many seeds;
 * agreement with a real redis-server's registers is the engine's Redis test.
 */
class MurmurHash64ATest {

    /**
     * SMHasher's verification: key i is the bytes 0 .. i - 1 hashed with seed 256 - i, for i in
     * [0, 256); the 256 hashes, as little-endian bytes, are hashed with seed 0, and the low 32 bits of
     * that are the function's verification value.
     */
    @Test
    void smhasherVerificationValueIs0x1F0D3804() {
        byte[] key = new byte[256];
        ByteBuffer hashes = ByteBuffer.allocate(256 * Long.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < 256; i++) {
            key[i] = (byte) i;
            hashes.putLong(MurmurHash64A.hash(MemorySegment.ofArray(key), 0, i, 256 - i));
        }
        long last = MurmurHash64A.hash(MemorySegment.ofArray(hashes.array()), 0, hashes.capacity(), 0);
        assertEquals(0x1F0D3804, (int) last);
    }

    @Test
    void theEmptyKeyWithSeedZeroHashesToZero() {
        assertEquals(0, MurmurHash64A.hash(MemorySegment.ofArray(new byte[0]), 0, 0, 0));
    }

    @Test
    void slicesOfNativeMemoryHashAsTheSameBytesOnTheHeap() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment memory = arena.allocate(300);
            qt().withFixedSeed(17L)
                    .withExamples(2_000)
                    .forAll(
                            Generate.byteArrays(
                                    integers().between(0, 200),
                                    Generate.bytes(Byte.MIN_VALUE, Byte.MAX_VALUE, (byte) 0)),
                            integers().between(0, 99),
                            longs().all())
                    .checkAssert((bytes, offset, seed) -> {
                        MemorySegment.copy(MemorySegment.ofArray(bytes), 0, memory, offset, bytes.length);
                        assertEquals(
                                MurmurHash64A.hash(MemorySegment.ofArray(bytes), 0, bytes.length, seed),
                                MurmurHash64A.hash(memory, offset, bytes.length, seed));
                    });
        }
    }

    @Test
    void rangesOutsideTheSegmentAreRefused() {
        MemorySegment four = MemorySegment.ofArray(new byte[4]);
        assertThrows(IndexOutOfBoundsException.class, () -> MurmurHash64A.hash(four, 2, 3, 0));
        assertThrows(IndexOutOfBoundsException.class, () -> MurmurHash64A.hash(four, 0, -1, 0));
    }
}
