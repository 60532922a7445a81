package io.mapsketch.memory;

import java.nio.file.Path;

/**
 * What comparing a region's payload with the checksum in its file's header found
 * ({@link SketchRegion#verify()}). The payload is split into at most
 * {@value SketchFileLayout#MAX_CHUNKS} chunks with a digest each; a mismatch names the first chunk
 * whose bytes differ from its digest. The engine reports it as its API's verification result.
 *
 * @param finding what the comparison can claim
 * @param file the file compared, or {@code null} for an anonymous region
 * @param from the payload offset of the first chunk whose bytes do not match its digest; 0 if none
 * @param to the end of that chunk, exclusive; equal to {@code from} when every chunk matched or nothing
 *     was compared
 * @param formatVersion the file's format version
 * @param writers the writers registered in the file's live line while it was compared
 */
public record PayloadComparison(Finding finding, Path file, long from, long to, int formatVersion, int writers) {

    /** The claims a comparison can make, from the best to the worst. */
    public enum Finding {
        /** Every chunk matches the digests recorded at the last writer's clean close or at a {@code force()}. */
        OK,
        /** An anonymous region: nothing is persisted, so nothing was compared. */
        NOT_PERSISTED,
        /** A file of a format version before {@value SketchFileLayout#PAYLOAD_CHECKSUM_VERSION}: no checksum. */
        NO_CHECKSUM,
        /** A chunk differs, no writer is registered, but the last writer's close has not sealed the digests. */
        STALE_CLOSED_UNCLEANLY,
        /** A chunk differs while writers are registered (or one opened the file during the comparison). */
        STALE_WRITERS_ATTACHED,
        /** A chunk differs although no writer can have changed the payload since the digests were sealed. */
        CORRUPT
    }
}
