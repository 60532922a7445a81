package io.mapsketch.memory;

import static io.mapsketch.memory.FileFault.Reason.CORRUPT;
import static io.mapsketch.memory.FileFault.Reason.INCOMPATIBLE;
import static io.mapsketch.memory.SketchFileLayout.*;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Locale;
import java.util.zip.CRC32C;

/** Writes and validates the header page. Validation trusts nothing it has not checked. */
final class HeaderCodec {

    static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private HeaderCodec() {}

    /**
     * Writes a fresh header page: the static fields, zero counters, the clean-close flag and the CRC.
     * The page must be zero-filled beforehand.
     */
    static void writeNew(SketchHeader header, MemorySegment page) {
        page.set(LONG, MAGIC_OFFSET, MAGIC);
        page.set(INT, VERSION_OFFSET, header.formatVersion());
        page.set(INT, HEADER_LENGTH_OFFSET, HEADER_LENGTH);
        page.set(INT, KIND_OFFSET, header.kindId());
        page.set(INT, HASH_SCHEME_OFFSET, header.hashScheme().id());
        page.set(LONG, HASH_SEED_OFFSET, header.hashSeed());
        page.set(LONG, PAYLOAD_OFFSET_OFFSET, header.payloadOffset());
        page.set(LONG, PAYLOAD_LENGTH_OFFSET, header.payloadLength());
        page.set(LONG, CREATED_OFFSET, header.createdMillis());
        for (int i = 0; i < PARAMETER_COUNT; i++) {
            page.set(LONG, PARAMETERS_OFFSET + 8L * i, header.parameter(i));
        }
        page.set(INT, FLAGS_OFFSET, FLAG_CLEAN_CLOSE);
        page.set(INT, CRC_OFFSET, checksum(page));
    }

    /**
     * CRC32C of the header page with the CRC field, the live line, from format version
     * {@value SketchFileLayout#SUMMARY_LINE_VERSION} on the summary line, and from version
     * {@value SketchFileLayout#PAYLOAD_CHECKSUM_VERSION} on the checksum line and the chunk digests, and from
     * version {@value SketchFileLayout#COUNTER_SLOTS_VERSION} on the slot directory and the counter slots read
     * as zero, so that live values may change without rewriting it. The page's format version must be valid.
     */
    static int checksum(MemorySegment page) {
        int version = page.get(INT, VERSION_OFFSET);
        int liveEnd = version >= COUNTER_SLOTS_VERSION
                ? CHECKSUM_OFFSET
                : version >= SUMMARY_LINE_VERSION ? SUMMARY_OFFSET + CACHE_LINE : LIVE_OFFSET + CACHE_LINE;
        int staticEnd = version >= PAYLOAD_CHECKSUM_VERSION ? CHECKSUM_OFFSET : HEADER_LENGTH;
        CRC32C crc = new CRC32C();
        crc.update(page.asSlice(0, CRC_OFFSET).asByteBuffer());
        crc.update(new byte[4]);
        crc.update(page.asSlice(CRC_OFFSET + 4, LIVE_OFFSET - (CRC_OFFSET + 4)).asByteBuffer());
        crc.update(new byte[liveEnd - LIVE_OFFSET]);
        crc.update(page.asSlice(liveEnd, staticEnd - liveEnd).asByteBuffer());
        crc.update(new byte[HEADER_LENGTH - staticEnd]);
        return (int) crc.getValue();
    }

    /**
     * Validates a header page read from a file and returns its static fields.
     *
     * @param page the first {@code min(fileLength, 4096)} bytes of the file
     * @param file the file, for messages
     * @param fileLength the file's real length
     * @param kinds accepts or refuses the header's kind id, once the header's checksum is verified
     * @throws FileFault if the header is damaged or of a newer format
     * @throws IOException if {@code kinds} refuses the kind
     */
    static SketchHeader read(MemorySegment page, Path file, long fileLength, SketchRegions.KindCheck kinds)
            throws IOException {
        if (fileLength < HEADER_LENGTH) {
            throw new FileFault(
                    CORRUPT,
                    file,
                    "file length is " + fileLength
                            + " bytes, expected at least " + HEADER_LENGTH + " (the header page)"
                            + (fileLength == 0
                                    ? "; the file is empty"
                                    : "; the file is truncated or not a sketch file"));
        }
        long magic = page.get(LONG, MAGIC_OFFSET);
        if (magic != MAGIC) {
            throw corrupt(
                    file, "magic", MAGIC_OFFSET, hex(MAGIC) + " (\"MAPSKTCH\")", hex(magic), "not a mapsketch file");
        }
        int version = page.get(INT, VERSION_OFFSET);
        if (version > FORMAT_VERSION) {
            throw new FileFault(
                    INCOMPATIBLE,
                    file,
                    "header field 'format version' (offset " + VERSION_OFFSET
                            + ") is " + version + ", expected at most " + FORMAT_VERSION
                            + "; the file was written by a newer mapsketch");
        }
        if (version < FIRST_FORMAT_VERSION) {
            throw corrupt(
                    file,
                    "format version",
                    VERSION_OFFSET,
                    FIRST_FORMAT_VERSION + ".." + FORMAT_VERSION,
                    Integer.toString(version));
        }
        int headerLength = page.get(INT, HEADER_LENGTH_OFFSET);
        if (headerLength != HEADER_LENGTH) {
            throw corrupt(
                    file,
                    "header length",
                    HEADER_LENGTH_OFFSET,
                    Integer.toString(HEADER_LENGTH),
                    Integer.toString(headerLength));
        }
        int storedCrc = page.get(INT, CRC_OFFSET);
        int actualCrc = checksum(page);
        if (storedCrc != actualCrc) {
            throw corrupt(
                    file,
                    "header CRC32C",
                    CRC_OFFSET,
                    hex(actualCrc) + " (computed over the header)",
                    hex(storedCrc),
                    "the header is damaged");
        }
        int kind = page.get(INT, KIND_OFFSET);
        kinds.check(file, kind);
        HashScheme scheme = HashScheme.byId(page.get(INT, HASH_SCHEME_OFFSET));
        if (scheme == null) {
            throw new FileFault(
                    INCOMPATIBLE,
                    file,
                    "header field 'hash scheme' (offset " + HASH_SCHEME_OFFSET + ") is "
                            + page.get(INT, HASH_SCHEME_OFFSET) + ", which this build does not know");
        }
        long payloadOffset = page.get(LONG, PAYLOAD_OFFSET_OFFSET);
        if (payloadOffset < HEADER_LENGTH || payloadOffset % CACHE_LINE != 0) {
            throw corrupt(
                    file,
                    "payload offset",
                    PAYLOAD_OFFSET_OFFSET,
                    "a multiple of " + CACHE_LINE + " that is at least " + HEADER_LENGTH,
                    Long.toString(payloadOffset));
        }
        long payloadLength = page.get(LONG, PAYLOAD_LENGTH_OFFSET);
        if (payloadLength < 0 || payloadLength != fileLength - payloadOffset) {
            throw corrupt(
                    file,
                    "payload length",
                    PAYLOAD_LENGTH_OFFSET,
                    (fileLength - payloadOffset) + " (file length " + fileLength + " minus payload offset)",
                    Long.toString(payloadLength),
                    "the file was truncated or extended after creation");
        }
        checkLiveLine(page, file);
        if (version >= COUNTER_SLOTS_VERSION) {
            CounterSlots.check(page, file);
        }
        if (version >= PAYLOAD_CHECKSUM_VERSION) {
            PayloadChecksum.checkLine(page, file, payloadLength);
        }
        long[] parameters = new long[PARAMETER_COUNT];
        for (int i = 0; i < PARAMETER_COUNT; i++) {
            parameters[i] = page.get(LONG, PARAMETERS_OFFSET + 8L * i);
        }
        return new SketchHeader(
                kind,
                scheme,
                page.get(LONG, HASH_SEED_OFFSET),
                parameters,
                payloadOffset,
                payloadLength,
                page.get(LONG, CREATED_OFFSET),
                version);
    }

    private static void checkLiveLine(MemorySegment page, Path file) throws FileFault {
        long items = page.get(LONG, ITEMS_OFFSET);
        if (items < 0) {
            throw corrupt(file, "items added", ITEMS_OFFSET, "a count >= 0", Long.toString(items));
        }
        long weight = page.get(LONG, WEIGHT_OFFSET);
        if (weight < 0) {
            throw corrupt(file, "total weight", WEIGHT_OFFSET, "a count >= 0", Long.toString(weight));
        }
        int flags = page.get(INT, FLAGS_OFFSET);
        if ((flags & ~KNOWN_FLAGS) != 0) {
            throw corrupt(file, "flags", FLAGS_OFFSET, "only bits " + hex(KNOWN_FLAGS), hex(flags));
        }
        for (int offset = LIVE_RESERVED_OFFSET; offset < LIVE_OFFSET + CACHE_LINE; offset += 8) {
            long value = page.get(LONG, offset);
            if (value != 0) {
                throw corrupt(file, "reserved", offset, "0", hex(value));
            }
        }
    }

    static FileFault corrupt(Path file, String field, int offset, String expected, String actual) {
        return corrupt(file, field, offset, expected, actual, null);
    }

    private static FileFault corrupt(Path file, String field, int offset, String expected, String actual, String hint) {
        return new FileFault(
                CORRUPT,
                file,
                "header field '" + field + "' (offset " + offset + ") is " + actual + ", expected " + expected
                        + (hint == null ? "" : "; " + hint));
    }

    static String hex(long value) {
        return "0x" + Long.toHexString(value).toUpperCase(Locale.ROOT);
    }

    private static String hex(int value) {
        return "0x" + Integer.toHexString(value).toUpperCase(Locale.ROOT);
    }
}
