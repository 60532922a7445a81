package io.mapsketch.frequency;

import io.mapsketch.IncompatibleSketchException;
import io.mapsketch.internal.DoubleHashing;

/**
 * Which counter a key takes in each row of a Count-Min matrix, in the scheme named by its file's
 * format version. Row r's counter is the column {@code reduce(v_r)} ({@link DoubleHashing#reduce},
 * onto the width), where, from the key's 64-bit hash h:
 *
 * <ul>
 *   <li>from format version {@value CountMinFormat#INDEPENDENT_ROWS_VERSION}, every file this build
 *       creates: {@code v_r = mix(h + (r + 1) G)}, the r-th output of SplitMix64 seeded with h
 *       ({@code java.util.SplittableRandom}'s generator: G its golden-ratio increment, mix Stafford's
 *       "Mix13" finaliser). Each row's column is a function of all 64 bits of h of its own, so two keys
 *       share a counter in a row with probability 1/w, close to independently of the other rows;</li>
 *   <li>earlier files: double hashing, {@code v_r = h + r y + r (r - 1) (r - 2) / 6} with
 *       {@code y = DoubleHashing.step(h)}. Every column is then fixed by the high bits of h and y alone,
 *       so two keys whose two reduced values agree share their counter in every row: about one pair in
 *       w^2, whatever the depth. These files keep the positions they were written with.</li>
 * </ul>
 *
 * <p>A loop over one key's rows keeps a 64-bit state: {@code x = first(h)} and {@code y = step(h)},
 * the row's value is {@code value(x)}, and after each row {@code x += y; y += bump(r)}. That is the
 * double-hashing loop of older files unchanged (bump r), and for newer ones SplitMix64's loop (bump
 * 0). Why the mix suffices, and what it costs: {@code docs/design/frequency.md}.
 */
final class CountMinRows {

    /**
     * The depth the single-key row loops are compiled for as a constant, fully unrolled (delta 0.01, the
     * seed's sketch and the usual Redis CMS.INITBYPROB): their add and estimate run 1.4x faster in cache
     * than a loop whose trip count is a field ({@code docs/design/frequency.md}, "five rows unrolled").
     */
    static final int UNROLLED_DEPTH = 5;

    /** SplitMix64's increment, {@code 2^64} divided by the golden ratio, made odd. */
    private static final long GAMMA = 0x9E37_79B9_7F4A_7C15L;

    private final boolean independent;
    private final long bumpMask;

    private CountMinRows(boolean independent) {
        this.independent = independent;
        this.bumpMask = independent ? 0 : -1L;
    }

    /** The rows of a file of {@code formatVersion}. */
    static CountMinRows of(int formatVersion) {
        return new CountMinRows(formatVersion >= CountMinFormat.INDEPENDENT_ROWS_VERSION);
    }

    /** The state x of row 0 for a key of this hash. */
    long first(long hash) {
        return independent ? hash + GAMMA : hash;
    }

    /** The state y of row 0 for a key of this hash: what x advances by after row 0. */
    long step(long hash) {
        return independent ? GAMMA : DoubleHashing.step(hash);
    }

    /** What y advances by after row {@code row}. */
    long bump(int row) {
        return row & bumpMask;
    }

    /** The 64-bit value of the row whose state is {@code x}; its reduction onto the width is the column. */
    long value(long x) {
        return independent ? mix(x) : x;
    }

    /** Stafford's "Mix13", SplitMix64's output function: a bijection of 64-bit values with full avalanche. */
    static long mix(long x) {
        long z = (x ^ x >>> 30) * 0xBF58_476D_1CE4_E5B9L;
        z = (z ^ z >>> 27) * 0x94D0_49BB_1331_11EBL;
        return z ^ z >>> 31;
    }

    /**
     * Refuses to combine sketches whose rows fall differently: the same key would count in different
     * counters in each.
     *
     * @throws IncompatibleSketchException naming the row scheme of both
     */
    void requireSameScheme(CountMinRows other) {
        if (independent != other.independent) {
            throw new IncompatibleSketchException("row scheme", describe(), other.describe());
        }
    }

    private String describe() {
        return independent
                ? "a mix per row (format version " + CountMinFormat.INDEPENDENT_ROWS_VERSION + " and later)"
                : "double hashing (format versions before " + CountMinFormat.INDEPENDENT_ROWS_VERSION + ")";
    }
}
