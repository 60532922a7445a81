package io.mapsketch.memory;

/**
 * The hash function a sketch file was built with. Stored in the header with its seed, so two
 * processes that open one file compute the same bits or refuse to open it. Ids are part of the
 * file format and never reused.
 */
public enum HashScheme {
    /** XXH3, 64-bit output, seeded (the reference implementation is hash4j's {@code xxh3_64}). */
    XXH3_64(1);

    private final int id;

    HashScheme(int id) {
        this.id = id;
    }

    /**
     * Returns the id stored in the header for this scheme.
     *
     * @return the file-format id, stable across releases
     */
    public int id() {
        return id;
    }

    /**
     * Looks a scheme up by its file-format id.
     *
     * @param id the id read from a header
     * @return the scheme, or {@code null} when this build does not know the id
     */
    static HashScheme byId(int id) {
        for (HashScheme scheme : values()) {
            if (scheme.id == id) {
                return scheme;
            }
        }
        return null;
    }
}
