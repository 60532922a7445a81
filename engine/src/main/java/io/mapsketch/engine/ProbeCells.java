package io.mapsketch.engine;

import io.mapsketch.memory.SketchFileLayout;

/**
 * Where the k probes of a key fall among the m cells of a classic or counting Bloom filter: enhanced
 * double hashing (Dillinger and Manolios) from the key's 64-bit hash h and its step
 * {@code y = DoubleHashing.step(h)}, in one of two schemes that the file's format version names.
 *
 * <ul>
 *   <li>Format version {@value SketchFileLayout#ENHANCED_PROBES_VERSION} and later, every file this build
 *       creates: probe i is the cell {@code (reduce(h + i y) + i (i - 1) (i - 2) / 6) mod m}. The term
 *       is added in cells, after the reduction, where it separates the probes of a key whose step lies
 *       close to a fraction a/b of 2^64 with a small b: {@code reduce(h + i y)} alone then visits only
 *       about b cells (for about k^2/m of all keys, whose false-positive rate approaches that of a filter
 *       with b probes).</li>
 *   <li>Earlier files: probe i is {@code reduce(h + i y + i (i - 1) (i - 2) / 6)}. The term, at most a
 *       few tens of thousands, is added to the 64-bit value, of which the reduction keeps only the top
 *       bits, so it almost never moves a probe; these files keep the positions they were written with.</li>
 * </ul>
 *
 * <p>{@code reduce} is the unsigned multiply-high onto [0, m), so filters of more than 2^32 cells use
 * every cell. Cost per probe: a multiply, a multiply-high, two loads from k-entry tables and a
 * conditional subtraction. Both schemes are drawn in {@code docs/file-format.md}.
 */
final class ProbeCells {

    private final long cells;
    private final boolean termInCells;
    /** The term added to the 64-bit value before the reduction, per probe (older files). */
    private final long[] valueTerms;
    /** The term added after the reduction, per probe, already reduced mod m (newer files). */
    private final long[] cellTerms;

    private ProbeCells(long cells, int hashes, boolean termInCells) {
        this.cells = cells;
        this.termInCells = termInCells;
        this.valueTerms = new long[hashes];
        this.cellTerms = new long[hashes];
        for (int i = 0; i < hashes; i++) {
            long term = (long) i * (i - 1) * (i - 2) / 6;
            if (termInCells) {
                cellTerms[i] = term % cells;
            } else {
                valueTerms[i] = term;
            }
        }
    }

    /**
     * The probes of a filter of {@code cells} cells and {@code hashes} probes per key, in the scheme of
     * a file of {@code formatVersion}.
     */
    static ProbeCells of(long cells, int hashes, int formatVersion) {
        return new ProbeCells(cells, hashes, formatVersion >= SketchFileLayout.ENHANCED_PROBES_VERSION);
    }

    /** The cell of probe {@code probe} of a key with this hash and {@code step = DoubleHashing.step(hash)}. */
    long cell(long hash, long step, int probe) {
        long cell = DoubleHashing.reduce(hash + probe * step + valueTerms[probe], cells) + cellTerms[probe];
        return cell >= cells ? cell - cells : cell;
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
        return termInCells ? "enhanced term in cells (format version " + SketchFileLayout.ENHANCED_PROBES_VERSION
                + " and later)" : "enhanced term in the 64-bit value (format versions before "
                + SketchFileLayout.ENHANCED_PROBES_VERSION + ")";
    }
}
