package io.mapsketch.membership;

/**
 * An add was refused because the filter has no room for the key: a cuckoo filter found no free slot
 * for its fingerprint within its bounded search of moves (which begins to happen at about 96% of its
 * slots occupied), or the key already fills both of its buckets. The key was not added; the filter
 * holds exactly what it held before the refused add, so every key added earlier is still present.
 */
public final class FilterFullException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message which filter refused, why, and how full it is
     */
    public FilterFullException(String message) {
        super(message);
    }
}
