package io.mapsketch.internal;

/**
 * The two functions of double hashing over 64-bit arithmetic: {@link #step} derives a key's probe
 * increment from its whole hash, and {@link #reduce} maps a 64-bit value onto [0, m) by a
 * multiply-high, so tables of more than 2^32 cells use every cell and the probes of one key stay
 * independent (the failure of schemes that split one 64-bit hash into two 32-bit halves). The Bloom
 * filters' probes ({@code ProbeCells}) and the Count-Min rows of files written before format version 4
 * ({@code CountMinRows}) are built from them; the exact derivation is part of the file format.
 *
 * <p>Those Count-Min rows advance as {@code x += y; y += row}: the "enhanced" term this adds to row r,
 * {@code r (r - 1) (r - 2) / 6}, is at most a few thousand, and {@code reduce} keeps only the top bits
 * of the 64-bit sum, so it moves a row's column only when it carries across a multiple of
 * {@code 2^64 / width}, which almost never happens. Rows are in effect {@code reduce(h + r y)}, fixed by
 * the high bits of h and y: two keys that agree there share every row, which is why newer files mix each
 * row on its own. Bloom filters written from format version 3 add the term in cells instead
 * ({@code ProbeCells}).
 */
public final class DoubleHashing {

    private DoubleHashing() {}

    /** The increment of the first probe, derived from the whole hash by a 64-bit finaliser. */
    public static long step(long hash) {
        long h = hash ^ 0x5851F42D4C957F2DL;
        h = (h ^ h >>> 33) * 0xFF51AFD7ED558CCDL;
        h = (h ^ h >>> 33) * 0xC4CEB9FE1A85EC53L;
        return h ^ h >>> 33;
    }

    /** Maps a 64-bit value uniformly onto [0, cells). */
    public static long reduce(long value, long cells) {
        return Math.unsignedMultiplyHigh(value, cells);
    }
}
