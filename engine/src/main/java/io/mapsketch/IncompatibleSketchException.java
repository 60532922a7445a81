package io.mapsketch;

/**
 * Two sketches cannot be combined (merged, compared, counted together) because a parameter that
 * must be identical differs. The message names the parameter and both values.
 */
public final class IncompatibleSketchException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param parameter the parameter that differs
     * @param mine its value in the sketch being merged into
     * @param theirs its value in the other sketch
     */
    public IncompatibleSketchException(String parameter, Object mine, Object theirs) {
        super("sketches differ in " + parameter + ": " + mine + " here, " + theirs + " in the other sketch;"
                + " only sketches with identical kind, shape, hash scheme and seed can be combined");
    }
}
