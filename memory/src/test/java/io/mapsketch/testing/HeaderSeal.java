package io.mapsketch.testing;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * Rewrites the CRC32C of a sketch file's header page after a deliberate edit, so that the edit
 * itself is what a test judges. Written from the file format's description (the CRC field at byte
 * 56, the live line at bytes 256..319, from format version 2 on the summary line at bytes 320..383
 * from version 4 on the checksum line and chunk digests at bytes 1984..4095 and from version 5 on the
 * slot directory and counter slots at bytes 384..1983 read as zero), not
 * from the library's code, so it also checks that the two agree.
 */
public final class HeaderSeal {

    private static final int HEADER_LENGTH = 4096;
    private static final int CRC_OFFSET = 56;
    private static final int LIVE_OFFSET = 256;
    private static final int LIVE_LENGTH = 64;
    private static final int VERSION_OFFSET = 8;
    private static final int SUMMARY_LINE_VERSION = 2;
    private static final int SUMMARY_OFFSET = 320;
    private static final int SUMMARY_LENGTH = 64;
    private static final int PAYLOAD_CHECKSUM_VERSION = 4;
    private static final int CHECKSUM_OFFSET = 1984;
    private static final int COUNTER_SLOTS_VERSION = 5;
    private static final int SLOT_DIRECTORY_OFFSET = 384;

    private HeaderSeal() {}

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
        ByteBuffer header = ByteBuffer.wrap(fileBytes).order(ByteOrder.LITTLE_ENDIAN);
        if (header.getInt(VERSION_OFFSET) >= SUMMARY_LINE_VERSION) {
            Arrays.fill(page, SUMMARY_OFFSET, SUMMARY_OFFSET + SUMMARY_LENGTH, (byte) 0);
        }
        if (header.getInt(VERSION_OFFSET) >= PAYLOAD_CHECKSUM_VERSION) {
            Arrays.fill(page, CHECKSUM_OFFSET, HEADER_LENGTH, (byte) 0);
        }
        if (header.getInt(VERSION_OFFSET) >= COUNTER_SLOTS_VERSION) {
            Arrays.fill(page, SLOT_DIRECTORY_OFFSET, CHECKSUM_OFFSET, (byte) 0);
        }
        CRC32C crc = new CRC32C();
        crc.update(page);
        header.putInt(CRC_OFFSET, (int) crc.getValue());
    }
}
