package io.mapsketch.internal;

/**
 * The format versions of one sketch kind that this build reads, and the one it writes. What each
 * version changed for the kind is the kind's format description's to say.
 *
 * @param oldest the oldest version read
 * @param newest the newest version read
 * @param written the version new files of the kind are created at, in [oldest, newest]
 */
public record FormatVersions(int oldest, int newest, int written) {

    /**
     * Validates the range.
     *
     * @throws IllegalArgumentException unless {@code 1 <= oldest <= written <= newest}
     */
    public FormatVersions {
        if (oldest < 1 || written < oldest || newest < written) {
            throw new IllegalArgumentException("versions " + oldest + ".." + newest + " writing " + written
                    + ", must satisfy 1 <= oldest <= written <= newest");
        }
    }

    /**
     * Tells whether files of a version are read.
     *
     * @param version a file's format version
     * @return {@code true} if it is in [oldest, newest]
     */
    public boolean reads(int version) {
        return version >= oldest && version <= newest;
    }
}
