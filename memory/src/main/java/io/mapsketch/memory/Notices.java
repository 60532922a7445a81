package io.mapsketch.memory;

/**
 * The notices this module gives: warnings on the {@link System.Logger} named
 * {@value #LOGGER}, for an application (or the command line) to show.
 */
final class Notices {

    /** Name of the logger. */
    static final String LOGGER = "io.mapsketch.memory";

    private Notices() {}

    /** Logs one warning. */
    static void warn(String message) {
        System.getLogger(LOGGER).log(System.Logger.Level.WARNING, message);
    }
}
