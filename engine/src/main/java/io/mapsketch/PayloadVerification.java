package io.mapsketch;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;

/**
 * What comparing a sketch's payload with the checksum in its file's header found
 * ({@link Sketch#verify()}): intact, damaged, or not to be judged now, and why. The payload is split
 * into at most 512 chunks with a digest each; a mismatch names the first
 * chunk whose bytes differ from its digest.
 *
 * @param state what the comparison can claim
 * @param file the file compared, or {@code null} for an anonymous region
 * @param from the payload offset of the first chunk whose bytes do not match its digest; 0 if none
 * @param to the end of that chunk, exclusive; equal to {@code from} when every chunk matched or nothing
 *     was compared
 * @param formatVersion the file's format version
 * @param writers the writers registered in the file's live line while it was compared (a writer killed
 *     while open stays registered until the next writer that finds itself alone opens the file)
 */
public record PayloadVerification(State state, Path file, long from, long to, int formatVersion, int writers) {

    /**
     * The claims a verification can make, from the best to the worst; {@link #worseOf} picks by this order.
     */
    public enum State {
        /** Every chunk matches the digests recorded at the last writer's clean close or at a {@code force()}. */
        OK,
        /** An anonymous region: nothing is persisted, so nothing was compared. */
        NOT_PERSISTED,
        /** A file of a format version before 4: it has no checksum. */
        NO_CHECKSUM,
        /**
         * A chunk differs from its digest and no writer is registered, but the last writer's close has not
         * recorded the digests (it is still closing, was killed while closing, or could not record them): the
         * payload may have changed since they were recorded.
         */
        STALE_CLOSED_UNCLEANLY,
        /**
         * A chunk differs from its digest while writers are registered (or one opened the file during the
         * comparison): they may have changed the payload since the digests were recorded.
         */
        STALE_WRITERS_ATTACHED,
        /**
         * A chunk differs from its digest although no writer can have changed the payload since the last
         * writer's clean close recorded the digests: the payload (or the digest) was damaged outside mapsketch.
         */
        CORRUPT
    }

    /**
     * Validates the fields.
     *
     * @throws NullPointerException if {@code state} is null
     * @throws IllegalArgumentException if the range is not {@code 0 <= from <= to}
     */
    public PayloadVerification {
        Objects.requireNonNull(state, "state");
        if (from < 0 || to < from) {
            throw new IllegalArgumentException("[from, to) = [" + from + ", " + to + "), must have 0 <= from <= to");
        }
    }

    /**
     * Tells whether the payload matched its checksum.
     *
     * @return {@code true} for {@link State#OK}
     */
    public boolean isOk() {
        return state == State.OK;
    }

    /**
     * Returns the worse of two verifications, for a sketch of several files.
     *
     * @param other another verification
     * @return {@code other} if its state is worse than this one's, else this
     */
    public PayloadVerification worseOf(PayloadVerification other) {
        return other.state.compareTo(state) > 0 ? other : this;
    }

    /**
     * Says in one line what was found, as {@code mapsketch verify} prints it: {@code ok},
     * {@code corrupt: payload bytes [a, b) do not match their checksum}, {@code stale: <reason>; ...} or
     * {@code no checksum: <reason>}.
     *
     * @return the line, without the file's name
     */
    public String describe() {
        String range = String.format(Locale.ROOT, "payload bytes [%d, %d)", from, to);
        return switch (state) {
            case OK -> "ok";
            case NOT_PERSISTED -> "no checksum: an anonymous sketch is not persisted";
            case NO_CHECKSUM -> "no checksum: format version " + formatVersion;
            case STALE_CLOSED_UNCLEANLY ->
                "stale: closed uncleanly, or still closing; " + range + " differ from the checksum";
            case STALE_WRITERS_ATTACHED ->
                "stale: "
                        + (writers == 0
                                ? "a writer opened the file while it was verified"
                                : writers + (writers == 1 ? " writer" : " writers") + " attached, or killed while open")
                        + "; " + range + " differ from the checksum";
            case CORRUPT -> "corrupt: " + range + " do not match their checksum";
        };
    }
}
