package io.mapsketch.enginetesting;

import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.longs;

import java.util.Arrays;
import java.util.stream.LongStream;
import org.quicktheories.core.Gen;

/**
 * QuickTheories generators of keys: the property gets the keys themselves, so that a failing case
 * shrinks to a short list of small keys (QuickTheories shrinks every draw, the length first).
 */
public final class KeyGenerators {

    private KeyGenerators() {}

    /** Arrays of any 64-bit keys, {@code minSize} to {@code maxSize} of them; repeats are possible. */
    public static Gen<long[]> keys(int minSize, int maxSize) {
        return arrays(longs().all(), minSize, maxSize);
    }

    /**
     * As {@link #keys}, each repeat dropped (first occurrences kept, in order): at most {@code maxSize}
     * keys, at least one if {@code minSize} is at least one. Random 64-bit keys almost never repeat; the
     * keys a shrink leaves do (many zeros), and a filter that counts copies must not see them as one key.
     */
    public static Gen<long[]> distinctKeys(int minSize, int maxSize) {
        return described(keys(minSize, maxSize)
                .map(keys -> LongStream.of(keys).distinct().toArray()));
    }

    /** Arrays of {@code minSize} to {@code maxSize} values of {@code values} (keys of a range, skewed keys). */
    public static Gen<long[]> arrays(Gen<Long> values, int minSize, int maxSize) {
        return described(lists().of(values)
                .ofSizeBetween(minSize, maxSize)
                .map(list -> list.stream().mapToLong(Long::longValue).toArray()));
    }

    private static Gen<long[]> described(Gen<long[]> keys) {
        return keys.describedAs(k -> k.length + " keys " + Arrays.toString(k));
    }
}
