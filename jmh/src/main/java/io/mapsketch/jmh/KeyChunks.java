package io.mapsketch.jmh;

/**
 * A key stream cut into equal chunks that the benchmarks walk one chunk per call, with a cursor that
 * wraps: one array per call, so no copy is measured, and the keys repeat only after the whole stream.
 */
final class KeyChunks {

    private final long[][] chunks;
    private int cursor;

    /**
     * Cuts {@code stream} into chunks of {@code size} keys.
     *
     * @param stream the keys; its length a multiple of {@code size} and the number of chunks a power of two
     * @param size keys per chunk
     */
    KeyChunks(long[] stream, int size) {
        int count = stream.length / size;
        if (count * size != stream.length || Integer.bitCount(count) != 1) {
            throw new IllegalArgumentException("stream.length = " + stream.length + " is not a power-of-two multiple"
                    + " of the chunk size " + size);
        }
        chunks = new long[count][size];
        for (int c = 0; c < count; c++) {
            System.arraycopy(stream, c * size, chunks[c], 0, size);
        }
    }

    /** The next chunk, wrapping after the last. */
    long[] next() {
        long[] chunk = chunks[cursor];
        cursor = (cursor + 1) & (chunks.length - 1);
        return chunk;
    }
}
