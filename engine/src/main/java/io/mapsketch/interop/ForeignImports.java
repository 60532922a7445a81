package io.mapsketch.interop;

import java.nio.file.Path;

/** The checks every import makes of a foreign sketch's parameters against what mapsketch holds. */
final class ForeignImports {

    /** Mapsketch's most probes per key. */
    static final int MAX_PROBES = 64;

    private ForeignImports() {}

    /**
     * Refuses a filter of more hash functions than mapsketch probes, naming the field at {@code offset}.
     *
     * @throws ForeignSketchException if {@code hashFunctions} is above {@value #MAX_PROBES}
     */
    static void requireProbes(String format, Path source, long offset, int hashFunctions)
            throws ForeignSketchException {
        if (hashFunctions > MAX_PROBES) {
            throw new ForeignSketchException(
                    format,
                    source,
                    offset,
                    hashFunctions + " hash functions, more than the " + MAX_PROBES
                            + " probes per key a mapsketch filter takes");
        }
    }
}
