package io.mapsketch.membership;

/**
 * A remove was refused because the key is certainly not in the filter: one of its counters (or
 * fingerprints) is absent. The filter is left as it was. Removing a key that was never added would
 * otherwise take away another key's presence and create false negatives.
 */
public final class KeyNotPresentException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message which filter refused and why
     */
    public KeyNotPresentException(String message) {
        super(message);
    }
}
