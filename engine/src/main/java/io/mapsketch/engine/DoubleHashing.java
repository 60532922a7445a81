package io.mapsketch.engine;

/**
 * Positions of the k probes of a key in a table of m cells, by enhanced double hashing over
 * 64-bit arithmetic (Dillinger and Manolios): {@code x = h}, {@code y = step(h)}, probe i is the
 * cell {@code reduce(x)}, then {@code x += y; y += i}. {@code reduce} maps the full 64-bit value
 * onto [0, m) by a multiply-high, so tables of more than 2^32 cells use every cell and the
 * probes of one key stay independent (the failure of schemes that split one 64-bit hash into two
 * 32-bit halves). The exact derivation is part of the file format.
 *
 * <p>The "enhanced" term ({@code y += i}, which adds {@code i (i - 1) (i - 2) / 6} to probe i) is at
 * most a few thousand for the k a filter uses, while {@code reduce} keeps only the top bits of the
 * 64-bit sum: it moves a probe only when it carries across a multiple of {@code 2^64 / cells}, which
 * almost never happens. The probes are in effect {@code reduce(h + i y)}, double hashing with a full
 * 64-bit step, which the false-positive tests accept. The term stays because it is the format.
 */
final class DoubleHashing {

    private DoubleHashing() {
    }

    /** The increment of the first probe, derived from the whole hash by a 64-bit finaliser. */
    static long step(long hash) {
        long h = hash ^ 0x5851F42D4C957F2DL;
        h = (h ^ h >>> 33) * 0xFF51AFD7ED558CCDL;
        h = (h ^ h >>> 33) * 0xC4CEB9FE1A85EC53L;
        return h ^ h >>> 33;
    }

    /** Maps a 64-bit value uniformly onto [0, cells). */
    static long reduce(long value, long cells) {
        return Math.unsignedMultiplyHigh(value, cells);
    }
}
