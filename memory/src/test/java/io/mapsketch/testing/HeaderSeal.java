package io.mapsketch.testing;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * Rewrites the CRC32C of a sketch file's header page after a deliberate edit, so that the edit
 * itself is what a test judges. Written from the file format's description (the CRC field at byte
 * 56 and the live line at bytes 256..319 read as zero), not from the library's code, so it also
 * checks that the two agree.
 */
public final class HeaderSeal {

    private static final int HEADER_LENGTH = 4096;
    private static final int CRC_OFFSET = 56;
    private static final int LIVE_OFFSET = 256;
    private static final int LIVE_LENGTH = 64;

    private HeaderSeal() {
    }

    /**
     * Recomputes and stores the header checksum.
     *
     * @param fileBytes a whole file, or at least its 4096-byte header page
     */
    public static void rewriteChecksum(byte[] fileBytes) {
        byte[] page = new byte[HEADER_LENGTH];
        System.arraycopy(fileBytes, 0, page, 0, HEADER_LENGTH);
        Arrays.fill(page, CRC_OFFSET, CRC_OFFSET + 4, (byte) 0);
        Arrays.fill(page, LIVE_OFFSET, LIVE_OFFSET + LIVE_LENGTH, (byte) 0);
        CRC32C crc = new CRC32C();
        crc.update(page);
        ByteBuffer.wrap(fileBytes).order(ByteOrder.LITTLE_ENDIAN).putInt(CRC_OFFSET, (int) crc.getValue());
    }
}
