package io.mapsketch.kernels;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

/**
 * The single-key forms of the blocked Bloom kernels equal the batch forms, key by key, and a block
 * that already holds a key's bits is not written.
 */
class BlockedBloomSingleKeyTest {

    @Test
    void singleKeyAddsAndLookupsEqualTheBatchForms() {
        qt().withFixedSeed(61L)
                .withExamples(200)
                .forAll(
                        integers().between(1, 40),
                        integers().between(0, 1),
                        TestMemory.words(0, 600),
                        TestMemory.words(300, 300))
                .checkAssert((blocks, sixteen, hashes, probes) -> {
                    int bitsPerKey = sixteen == 1 ? 16 : 8;
                    int count = hashes.length;
                    try (Arena arena = Arena.ofConfined()) {
                        long bytes = (long) blocks * BlockedBloomKernels.BLOCK_BYTES;
                        MemorySegment batch = arena.allocate(bytes + 64, 64).asSlice(64);
                        MemorySegment plain = arena.allocate(bytes, 64);
                        MemorySegment atomic = arena.allocate(bytes, 64);
                        long batchChanged = BlockedBloomKernels.add(batch, 0, blocks, bitsPerKey, hashes, 0, count);
                        long plainChanged = 0;
                        long atomicChanged = 0;
                        for (long hash : hashes) {
                            plainChanged += BlockedBloomKernels.addOne(plain, 0, blocks, bitsPerKey, hash) ? 1 : 0;
                            atomicChanged +=
                                    BlockedBloomKernels.addOneAtomic(atomic, 0, blocks, bitsPerKey, hash) ? 1 : 0;
                        }
                        assertArrayEquals(batch.toArray(ValueLayout.JAVA_BYTE), plain.toArray(ValueLayout.JAVA_BYTE));
                        assertArrayEquals(batch.toArray(ValueLayout.JAVA_BYTE), atomic.toArray(ValueLayout.JAVA_BYTE));
                        assertEquals(batchChanged, plainChanged);
                        assertEquals(batchChanged, atomicChanged);

                        boolean[] found = new boolean[probes.length];
                        BlockedBloomKernels.mightContain(
                                plain, 0, blocks, bitsPerKey, probes, 0, probes.length, found, 0);
                        for (int i = 0; i < probes.length; i++) {
                            assertEquals(
                                    found[i],
                                    BlockedBloomKernels.mightContainOne(plain, 0, blocks, bitsPerKey, probes[i]));
                        }
                        for (long hash : hashes) {
                            assertEquals(
                                    true, BlockedBloomKernels.mightContainOne(atomic, 0, blocks, bitsPerKey, hash));
                        }
                    }
                });
    }

    @Test
    void aBlockThatHoldsTheKeyIsNotWrittenByEitherImplementation() {
        qt().withFixedSeed(67L)
                .withExamples(100)
                .forAll(integers().between(0, 1), integers().between(0, 63), TestMemory.words(1, 40))
                .checkAssert((sixteen, offset, hashes) -> {
                    int bitsPerKey = sixteen == 1 ? 16 : 8;
                    for (KernelSet kernels : new KernelSet[] {KernelSet.SCALAR, TestMemory.twin()}) {
                        BloomOps ops = kernels.blockedBloom();
                        try (Arena arena = Arena.ofConfined()) {
                            MemorySegment filter = arena.allocate(offset + BlockedBloomKernels.BLOCK_BYTES, 64);
                            MemorySegment readOnly = filter.asReadOnly();
                            // A store into a read-only segment throws; the scalar and the Vector API stores throw
                            // different exceptions.
                            assertThrows(
                                    RuntimeException.class,
                                    () -> ops.setMissingBits(readOnly, offset, hashes[0], bitsPerKey),
                                    () -> kernels.implementation() + " did not write a missing bit");
                            for (long hash : hashes) {
                                ops.setMissingBits(filter, offset, hash, bitsPerKey);
                                assertFalse(ops.setMissingBits(readOnly, offset, hash, bitsPerKey));
                                assertTrue(ops.contains(readOnly, offset, hash, bitsPerKey));
                            }
                        }
                    }
                });
    }

    @Test
    void singleKeyFormsValidateTheirArguments() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment filter = arena.allocate(128, 64);
            assertThrows(IllegalArgumentException.class, () -> BlockedBloomKernels.addOne(filter, 0, 0, 8, 1));
            assertThrows(IllegalArgumentException.class, () -> BlockedBloomKernels.mightContainOne(filter, 0, 2, 9, 1));
            assertThrows(IndexOutOfBoundsException.class, () -> BlockedBloomKernels.addOneAtomic(filter, 64, 2, 8, 1));
            assertThrows(IllegalArgumentException.class, () -> BlockedBloomKernels.addOneAtomic(filter, 4, 1, 8, 1));
            assertThrows(
                    IllegalArgumentException.class, () -> BlockedBloomKernels.addOne(filter.asReadOnly(), 0, 2, 8, 1));
        }
    }
}
