package io.mapsketch.similarity;

/**
 * How a MinHash sketch turns an item's hash into the values its k slots are offered: the algorithm
 * of its signatures, recorded in the file's header (parameter "derivation scheme") and carried by
 * every {@link MinHashSignature}. Signatures of different derivations hold different values for the
 * same set, so they never compare or merge: the attempt is refused naming both.
 */
public enum MinHashDerivation {
    /**
     * Scheme 1, every file of format versions 1 to 4: slot s is offered
     * {@link io.mapsketch.kernels.MinHashKernels#derive derive(h, s)} for every item, k values per
     * item. Cost: k derivations per item.
     */
    CLASSIC(1),
    /**
     * Scheme 2, the default (format version 5): SuperMinHash (Ertl, 2017). An item offers one value to
     * each slot through a random permutation of the slots that it draws step by step, the value of
     * step j ranking below every value of step j + 1; an item stops at the last step whose values can
     * still lower a slot of the row. The Jaccard estimate is unbiased like the classic one, with a
     * variance no larger and smaller for sets of fewer items than about k. Cost: in a row that holds
     * many items, about one or two steps per item; the first item into an empty row takes k.
     */
    SUPER_MINHASH(2);

    private final int id;

    MinHashDerivation(int id) {
        this.id = id;
    }

    /**
     * Returns the scheme id the header records.
     *
     * @return 1 or 2
     */
    public int id() {
        return id;
    }

    /** The derivation of a scheme id the header has already checked. */
    static MinHashDerivation ofId(long id) {
        return id == CLASSIC.id ? CLASSIC : SUPER_MINHASH;
    }

    /** The id and the name, as refusals show them: {@code 2 (SUPER_MINHASH)}. */
    @Override
    public String toString() {
        return id + " (" + name() + ")";
    }
}
