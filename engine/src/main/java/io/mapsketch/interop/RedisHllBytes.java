package io.mapsketch.interop;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * The bytes of a Redis HyperLogLog string, as Redis's {@code hyperloglog.c} documents them:
 *
 * <pre>
 * offset  size  field
 *      0     4  magic "HYLL"
 *      4     1  encoding: 0 dense, 1 sparse
 *      5     3  reserved, zero
 *      8     8  cached cardinality, little-endian; bit 63 set: stale, PFCOUNT recomputes it
 *     16     -  dense: 16,384 6-bit registers, 12,288 bytes, register i at bits 6i .. 6i + 5 counted
 *               from the least significant bit of byte 0 upwards
 *               sparse: opcodes until the end of the string, covering the 16,384 registers in order:
 *                 ZERO  00xxxxxx           xxxxxx + 1 registers (1 to 64) hold 0
 *                 XZERO 01xxxxxx yyyyyyyy  xxxxxxyyyyyyyy + 1 registers (1 to 16,384) hold 0
 *                 VAL   1vvvvvxx           xx + 1 registers (1 to 4) hold vvvvv + 1 (1 to 32)
 * </pre>
 *
 * <p>A register holds a rank in [0, 51] (64 - 14 hash bits after the index, plus one). Decoding checks
 * every field and refuses, naming the offset, a string that Redis could not have written. Cost: one pass
 * over the bytes; the 16 KiB of registers decoded are allocated.
 */
final class RedisHllBytes {

    /** The command's name of the format. */
    static final String FORMAT = "redis-hll";
    /** Redis's registers. */
    static final int REGISTERS = 1 << 14;
    /** The largest rank: 64 - 14 + 1. */
    static final int MAX_RANK = 51;
    /** The header's length. */
    static final int HEADER = 16;
    /** The length of a dense string: the header and 16,384 6-bit registers. */
    static final int DENSE_LENGTH = HEADER + REGISTERS * 6 / 8;
    /** The longest sparse string that can cover 16,384 registers: one register per opcode byte. */
    static final int LONGEST = HEADER + REGISTERS;

    private static final byte[] MAGIC = "HYLL".getBytes(StandardCharsets.US_ASCII);
    private static final int ENCODING = 4;
    private static final int CARDINALITY = 8;
    private static final int DENSE = 0;
    private static final int SPARSE = 1;
    private static final int BITS = 6;
    private static final int REGISTER_MASK = (1 << BITS) - 1;

    private RedisHllBytes() {}

    /**
     * Decodes a dense or sparse string into its 16,384 registers, one byte each.
     *
     * @param source the file the bytes came from, for messages; {@code null} for an array
     * @throws ForeignSketchException naming the offset and the fault if the bytes are not such a string
     */
    static byte[] decode(byte[] bytes, Path source) throws ForeignSketchException {
        if (bytes.length < HEADER) {
            throw fault(
                    source,
                    bytes.length,
                    "the string ends after " + bytes.length + " bytes, inside the 16-byte header");
        }
        for (int i = 0; i < MAGIC.length; i++) {
            if (bytes[i] != MAGIC[i]) {
                throw fault(
                        source,
                        i,
                        "the magic is not \"HYLL\" (byte " + i + " is 0x" + Integer.toHexString(bytes[i] & 0xFF) + ")");
            }
        }
        for (int i = ENCODING + 1; i < CARDINALITY; i++) {
            if (bytes[i] != 0) {
                throw fault(
                        source,
                        i,
                        "reserved header byte " + i + " is 0x" + Integer.toHexString(bytes[i] & 0xFF) + ", must be 0");
            }
        }
        return switch (bytes[ENCODING]) {
            case DENSE -> dense(bytes, source);
            case SPARSE -> sparse(bytes, source);
            default ->
                throw fault(
                        source,
                        ENCODING,
                        "encoding " + (bytes[ENCODING] & 0xFF) + " is neither 0 (dense) nor 1 (sparse)");
        };
    }

    private static byte[] dense(byte[] bytes, Path source) throws ForeignSketchException {
        if (bytes.length != DENSE_LENGTH) {
            throw fault(
                    source,
                    Math.min(bytes.length, DENSE_LENGTH),
                    "a dense string is " + DENSE_LENGTH + " bytes (16 of header, 12,288 of registers), this one "
                            + bytes.length);
        }
        byte[] registers = new byte[REGISTERS];
        for (int i = 0; i < REGISTERS; i++) {
            int bit = i * BITS;
            int at = HEADER + bit / Byte.SIZE;
            int pair = (bytes[at] & 0xFF) | (at + 1 < bytes.length ? (bytes[at + 1] & 0xFF) << Byte.SIZE : 0);
            int value = (pair >>> (bit % Byte.SIZE)) & REGISTER_MASK;
            if (value > MAX_RANK) {
                throw fault(source, at, "register " + i + " holds " + value + ", above the largest rank " + MAX_RANK);
            }
            registers[i] = (byte) value;
        }
        return registers;
    }

    private static byte[] sparse(byte[] bytes, Path source) throws ForeignSketchException {
        byte[] registers = new byte[REGISTERS];
        int covered = 0;
        int at = HEADER;
        while (at < bytes.length) {
            int opcode = bytes[at] & 0xFF;
            int run;
            int value = 0;
            int length = 1;
            if ((opcode & 0x80) != 0) {
                value = ((opcode >>> 2) & 0x1F) + 1;
                run = (opcode & 0x3) + 1;
            } else if ((opcode & 0x40) != 0) {
                if (at + 1 >= bytes.length) {
                    throw fault(source, at, "an XZERO opcode is cut off: its second byte is missing");
                }
                run = (((opcode & 0x3F) << Byte.SIZE) | (bytes[at + 1] & 0xFF)) + 1;
                length = 2;
            } else {
                run = (opcode & 0x3F) + 1;
            }
            if (run > REGISTERS - covered) {
                throw fault(
                        source,
                        at,
                        "an opcode's run of " + run + " registers from register " + covered
                                + " goes past the last of the " + REGISTERS + " registers");
            }
            for (int i = 0; i < run && value != 0; i++) {
                registers[covered + i] = (byte) value;
            }
            covered += run;
            at += length;
        }
        if (covered != REGISTERS) {
            throw fault(source, bytes.length, "the opcodes cover " + covered + " registers, expected " + REGISTERS);
        }
        return registers;
    }

    /**
     * Encodes 16,384 registers as a dense string whose cached cardinality is 0 with the stale bit set, so
     * that Redis computes the count at the next {@code PFCOUNT}.
     */
    static byte[] encodeDense(byte[] registers) {
        byte[] bytes = new byte[DENSE_LENGTH];
        System.arraycopy(MAGIC, 0, bytes, 0, MAGIC.length);
        bytes[ENCODING] = DENSE;
        bytes[CARDINALITY + 7] = (byte) 0x80;
        for (int i = 0; i < REGISTERS; i++) {
            int bit = i * BITS;
            int at = HEADER + bit / Byte.SIZE;
            int shifted = registers[i] << (bit % Byte.SIZE);
            bytes[at] |= (byte) shifted;
            if (shifted > 0xFF) {
                bytes[at + 1] |= (byte) (shifted >>> Byte.SIZE);
            }
        }
        return bytes;
    }

    private static ForeignSketchException fault(Path source, long offset, String fault) {
        return new ForeignSketchException(FORMAT, source, offset, fault);
    }
}
