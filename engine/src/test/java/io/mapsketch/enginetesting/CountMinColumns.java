package io.mapsketch.enginetesting;

import java.util.SplittableRandom;

/**
 * Where a Count-Min or Top-K file puts a key's counter in each row, restated from the file format's
 * description (docs/file-format.md, Count-Min counters) rather than taken from the engine's code, so
 * that tests of the layout check that the two agree.
 */
public final class CountMinColumns {

    /** The first format version whose rows each take a mix of their own of the key's hash. */
    public static final int INDEPENDENT_ROWS_VERSION = 4;

    private CountMinColumns() {}

    /**
     * The key's column in each row as the file format defines it: from version 4 the outputs of
     * SplitMix64 seeded with the hash ({@code java.util.SplittableRandom}), before it double hashing.
     */
    public static long[] columns(long hash, int width, int depth, int version) {
        long[] columns = new long[depth];
        if (version >= INDEPENDENT_ROWS_VERSION) {
            SplittableRandom rows = new SplittableRandom(hash);
            for (int row = 0; row < depth; row++) {
                columns[row] = Math.unsignedMultiplyHigh(rows.nextLong(), width);
            }
            return columns;
        }
        long x = hash;
        long y = step(hash);
        for (int row = 0; row < depth; row++) {
            columns[row] = Math.unsignedMultiplyHigh(x, width);
            x += y;
            y += row;
        }
        return columns;
    }

    /** The double-hashing step as the file format defines it, restated independently of the engine. */
    private static long step(long hash) {
        long h = hash ^ 0x5851F42D4C957F2DL;
        h = (h ^ h >>> 33) * 0xFF51AFD7ED558CCDL;
        h = (h ^ h >>> 33) * 0xC4CEB9FE1A85EC53L;
        return h ^ h >>> 33;
    }
}
