package io.mapsketch.agrona;

import io.mapsketch.cardinality.HyperLogLog;
import io.mapsketch.frequency.FrequencySketch;
import io.mapsketch.membership.FilterFullException;
import io.mapsketch.membership.KeyNotPresentException;
import io.mapsketch.membership.MembershipFilter;
import io.mapsketch.membership.RemovableFilter;
import io.mapsketch.similarity.MinHash;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.Objects;
import org.agrona.DirectBuffer;

/**
 * Agrona {@link DirectBuffer} ranges as keys of the engine's sketches: each method hands the bytes
 * {@code [index, index + length)} of the buffer to the sketch's segment key form, so a key from a
 * buffer is the same key as the same bytes in any other form (a {@code String}'s UTF-8 bytes, a
 * {@code byte[]} range, a {@code long}'s eight little-endian bytes; see the engine's
 * {@linkplain io.mapsketch##keys key forms}).
 *
 * <p>Where the bytes are read ({@link #bytes}): in place for a buffer over a byte array
 * ({@code UnsafeBuffer} over a {@code byte[]} or a heap {@code ByteBuffer}, {@code ExpandableArrayBuffer})
 * or over a direct {@code ByteBuffer} ({@code ExpandableDirectByteBuffer}, an {@code UnsafeBuffer} over
 * {@code allocateDirect} or a {@code MappedByteBuffer}). A buffer over a bare address
 * ({@code UnsafeBuffer(long, int)}) is read in place when this module has native access (viewing an
 * address is the restricted {@code MemorySegment.reinterpret}: grant it with
 * {@code --enable-native-access=io.mapsketch.agrona}, or {@code ALL-UNNAMED} on the class path), and
 * otherwise copied into a new array per key, so that no JVM warns.
 *
 * <p>Errors: a range outside the buffer's capacity is refused with an {@link IndexOutOfBoundsException}
 * before the sketch is touched; otherwise each method throws what the sketch's segment form throws.
 * Cost: that form's, plus a bounds check and a segment view (or the copy above).
 */
public final class DirectBufferKeys {

    /** Whether this module may view bare addresses: {@code reinterpret} then runs without a warning. */
    private static final boolean NATIVE_ACCESS =
            DirectBufferKeys.class.getModule().isNativeAccessEnabled();

    private DirectBufferKeys() {}

    /**
     * Returns the bytes {@code [index, index + length)} of a buffer as a segment: a view where the
     * buffer lies on a byte array, a direct {@code ByteBuffer} or (with native access) any address,
     * otherwise a copy. A view changes as the buffer does; use it only while the buffer holds the key.
     *
     * @param buffer the buffer
     * @param index first byte
     * @param length number of bytes
     * @return a segment of {@code length} bytes
     * @throws IndexOutOfBoundsException if the range is outside the buffer's capacity
     */
    public static MemorySegment bytes(DirectBuffer buffer, int index, int length) {
        return bytes(buffer, index, length, NATIVE_ACCESS);
    }

    /** As {@link #bytes(DirectBuffer, int, int)}, viewing a bare address only if {@code viewAddresses}. */
    // Views an address only where the module has native access, within the buffer's checked capacity.
    @SuppressWarnings("restricted")
    static MemorySegment bytes(DirectBuffer buffer, int index, int length, boolean viewAddresses) {
        Objects.checkFromIndexSize(index, length, buffer.capacity());
        byte[] array = buffer.byteArray();
        if (array != null) {
            return MemorySegment.ofArray(array).asSlice((long) buffer.wrapAdjustment() + index, length);
        }
        ByteBuffer byteBuffer = buffer.byteBuffer();
        if (byteBuffer == null || byteBuffer.isDirect()) {
            // Off the heap: the buffer's address offset is the absolute address of its index 0.
            long address = buffer.addressOffset() + index;
            if (byteBuffer != null) {
                // The segment covers the ByteBuffer from its position, wherever that has moved since the wrap.
                MemorySegment wrapped = MemorySegment.ofBuffer(byteBuffer);
                long offset = address - wrapped.address();
                if (offset >= 0 && offset <= wrapped.byteSize() - length) {
                    return wrapped.asSlice(offset, length);
                }
            }
            if (viewAddresses) {
                return MemorySegment.ofAddress(address).reinterpret(length);
            }
        }
        byte[] copy = new byte[length];
        buffer.getBytes(index, copy);
        return MemorySegment.ofArray(copy);
    }

    /**
     * Adds a buffer range's key to a membership filter, as {@link MembershipFilter#add(MemorySegment, long, long)}.
     *
     * @param filter the filter
     * @param key the buffer
     * @param index first byte
     * @param length number of bytes
     * @return {@code true} if the filter changed
     * @throws IndexOutOfBoundsException if the range is outside the buffer
     * @throws IllegalStateException if the filter is read-only or closed
     * @throws FilterFullException if a cuckoo filter has no room for the key (it is not added)
     */
    public static boolean add(MembershipFilter filter, DirectBuffer key, int index, int length) {
        return filter.add(bytes(key, index, length), 0, length);
    }

    /**
     * Tells whether a buffer range's key may have been added to a filter, as
     * {@link MembershipFilter#mightContain(MemorySegment, long, long)}.
     *
     * @param filter the filter
     * @param key the buffer
     * @param index first byte
     * @param length number of bytes
     * @return {@code false} if certainly absent
     * @throws IndexOutOfBoundsException if the range is outside the buffer
     * @throws IllegalStateException if the filter is closed
     */
    public static boolean mightContain(MembershipFilter filter, DirectBuffer key, int index, int length) {
        return filter.mightContain(bytes(key, index, length), 0, length);
    }

    /**
     * Removes a buffer range's key from a filter, as {@link RemovableFilter#remove(MemorySegment, long, long)}.
     *
     * @param filter the filter
     * @param key the buffer
     * @param index first byte
     * @param length number of bytes
     * @throws KeyNotPresentException if the key is certainly not in the filter (nothing changes)
     * @throws IndexOutOfBoundsException if the range is outside the buffer
     * @throws IllegalStateException if the filter is read-only or closed
     */
    public static void remove(RemovableFilter filter, DirectBuffer key, int index, int length) {
        filter.remove(bytes(key, index, length), 0, length);
    }

    /**
     * Adds a buffer range's key to a HyperLogLog, as {@link HyperLogLog#add(MemorySegment, long, long)}.
     *
     * @param sketch the sketch
     * @param key the buffer
     * @param index first byte
     * @param length number of bytes
     * @return {@code true} if a register changed
     * @throws IndexOutOfBoundsException if the range is outside the buffer
     * @throws IllegalStateException if the sketch is read-only or closed
     */
    public static boolean add(HyperLogLog sketch, DirectBuffer key, int index, int length) {
        return sketch.add(bytes(key, index, length), 0, length);
    }

    /**
     * Adds one occurrence of a buffer range's key to a Count-Min or Top-K sketch, as
     * {@link FrequencySketch#add(MemorySegment, long, long)}.
     *
     * @param sketch the sketch
     * @param key the buffer
     * @param index first byte
     * @param length number of bytes
     * @return the key's estimate right after this add
     * @throws IndexOutOfBoundsException if the range is outside the buffer
     * @throws IllegalArgumentException if the key is longer than a Top-K sketch stores
     * @throws IllegalStateException if the sketch is read-only or closed
     */
    public static long add(FrequencySketch sketch, DirectBuffer key, int index, int length) {
        return sketch.add(bytes(key, index, length), 0, length);
    }

    /**
     * Adds {@code count} occurrences of a buffer range's key to a Count-Min or Top-K sketch, as
     * {@link FrequencySketch#add(MemorySegment, long, long, long)}.
     *
     * @param sketch the sketch
     * @param key the buffer
     * @param index first byte
     * @param length number of bytes
     * @param count occurrences, in [1, 2^63 - 1]
     * @return the key's estimate right after this add
     * @throws IndexOutOfBoundsException if the range is outside the buffer
     * @throws IllegalArgumentException if {@code count} is out of range, or the key is longer than a Top-K
     *     sketch stores
     * @throws IllegalStateException if the sketch is read-only or closed
     */
    public static long add(FrequencySketch sketch, DirectBuffer key, int index, int length, long count) {
        return sketch.add(bytes(key, index, length), 0, length, count);
    }

    /**
     * Estimates how often a buffer range's key was added, as {@link FrequencySketch#estimate(MemorySegment, long, long)}.
     *
     * @param sketch the sketch
     * @param key the buffer
     * @param index first byte
     * @param length number of bytes
     * @return the estimate, never below the truth unless saturated
     * @throws IndexOutOfBoundsException if the range is outside the buffer
     * @throws IllegalStateException if the sketch is closed
     */
    public static long estimate(FrequencySketch sketch, DirectBuffer key, int index, int length) {
        return sketch.estimate(bytes(key, index, length), 0, length);
    }

    /**
     * Tells whether the estimate of a buffer range's key is saturated, as
     * {@link FrequencySketch#isSaturated(MemorySegment, long, long)}.
     *
     * @param sketch the sketch
     * @param key the buffer
     * @param index first byte
     * @param length number of bytes
     * @return {@code true} if the estimate is at its largest value
     * @throws IndexOutOfBoundsException if the range is outside the buffer
     * @throws IllegalStateException if the sketch is closed
     */
    public static boolean isSaturated(FrequencySketch sketch, DirectBuffer key, int index, int length) {
        return sketch.isSaturated(bytes(key, index, length), 0, length);
    }

    /**
     * Adds a buffer range's key to a row of a MinHash sketch, as {@link MinHash#add(int, MemorySegment, long, long)}.
     *
     * @param sketch the sketch
     * @param row the row, in [0, rows)
     * @param key the buffer
     * @param index first byte
     * @param length number of bytes
     * @throws IllegalArgumentException if the row is out of range
     * @throws IndexOutOfBoundsException if the range is outside the buffer
     * @throws IllegalStateException if the sketch is read-only or closed
     */
    public static void add(MinHash sketch, int row, DirectBuffer key, int index, int length) {
        sketch.add(row, bytes(key, index, length), 0, length);
    }
}
