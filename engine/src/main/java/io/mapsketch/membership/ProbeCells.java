package io.mapsketch.membership;

import io.mapsketch.IncompatibleSketchException;

/**
 * Where the k probes of a key fall among the m cells of a classic or counting Bloom filter: enhanced
 * double hashing (Dillinger and Manolios) over 64-bit arithmetic. From the key's hash h and its step
 * {@code y = DoubleHashing.step(h)}, probe i is the cell {@code reduce(h + i y + t(i) U)}, where
 * {@code reduce} is the unsigned multiply-high onto [0, m) (so filters of more than 2^32 cells use every
 * cell), {@code t(i) = i (i - 1) (i - 2) / 6} is the enhanced term, and U, its unit, is named by the
 * file's format version:
 *
 * <ul>
 *   <li>from format version {@value ProbedLayout#ENHANCED_PROBES_VERSION}, every file this build
 *       creates: {@code U = ceil(2^64 / m)}, one cell's share of the 64-bit range, so the term moves
 *       probe i by t(i) cells (or one more, where the reduction rounds up). It separates the probes of a
 *       key whose step lies close to a fraction a/b of 2^64 with a small b: {@code reduce(h + i y)} alone
 *       then visits only about b cells (for about k^2/m of all keys, whose false-positive rate
 *       approaches that of a filter with b probes);</li>
 *   <li>earlier files: {@code U = 1}. The term, at most a few tens of thousands, almost never carries
 *       into the bits the reduction keeps, so it almost never moves a probe; these files keep the
 *       positions they were written with.</li>
 * </ul>
 *
 * <p>A loop over one key's probes keeps the 64-bit value without multiplying: from {@code x = h},
 * {@code y} and {@code bump = 0}, after each probe {@code x += y; y += bump; bump += U}. That is one
 * addition more than the loop of older files ({@code x += y; y += i}), and no load: a table of terms
 * read per probe, even from the L1 cache, made out-of-cache lookups slower (each load holds a
 * load-queue entry, leaving fewer for the misses). Both units are drawn in {@code docs/file-format.md}.
 */
final class ProbeCells {

    private final boolean termInCells;
    private final long termUnit;

    private ProbeCells(long cells, boolean termInCells) {
        this.termInCells = termInCells;
        this.termUnit = termInCells ? Long.divideUnsigned(-1L, cells) + 1 : 1;
    }

    /** The probes of a filter of {@code cells} cells in the scheme of a file of {@code formatVersion}. */
    static ProbeCells of(long cells, int formatVersion) {
        return new ProbeCells(cells, formatVersion >= ProbedLayout.ENHANCED_PROBES_VERSION);
    }

    /** U: what one unit of the enhanced term adds to a probe's 64-bit value (modulo 2^64). */
    long termUnit() {
        return termUnit;
    }

    /** The 64-bit value of probe {@code probe} of a key with this hash and step, whose reduction is its cell. */
    long value(long hash, long step, int probe) {
        return hash + probe * step + (long) probe * (probe - 1) * (probe - 2) / 6 * termUnit;
    }

    /**
     * Refuses to combine filters whose probes fall differently: the same key would set different cells
     * in each.
     *
     * @throws IncompatibleSketchException naming the probe scheme of both
     */
    void requireSameScheme(ProbeCells other) {
        if (termInCells != other.termInCells) {
            throw new IncompatibleSketchException("probe scheme", describe(), other.describe());
        }
    }

    private String describe() {
        return termInCells
                ? "enhanced term in cells (format version " + ProbedLayout.ENHANCED_PROBES_VERSION + " and later)"
                : "enhanced term in the 64-bit value (format versions before " + ProbedLayout.ENHANCED_PROBES_VERSION
                        + ")";
    }
}
