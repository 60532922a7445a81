package io.mapsketch.memory;

/**
 * Byte offsets of the sketch file header. All values are little-endian. This map and
 * {@code docs/file-format.md} describe the same layout and change together.
 *
 * <pre>
 * offset  size  field
 * ------  ----  -----------------------------------------------------------------
 *      0     8  magic, ASCII "MAPSKTCH"
 *      8     4  format version                   (FIRST_FORMAT_VERSION..FORMAT_VERSION)
 *     12     4  header length in bytes (4096)
 *     16     4  sketch kind id                     (the engine's SketchKind)
 *     20     4  hash scheme id                     (HashScheme)
 *     24     8  hash seed
 *     32     8  payload offset (multiple of 64, at least the header length)
 *     40     8  payload length in bytes
 *     48     8  creation time, milliseconds since the epoch (UTC)
 *     56     4  CRC32C of the header page, this field, the live line, the summary line (version 2
 *               on), the counter slots (version 5 on) and bytes 1984..4095 (version 4 on) read as zero
 *     60     4  reserved, zero
 *     64   128  16 kind-specific parameters, int64 each
 *    192    64  reserved, zero
 *    256    64  live line (its own cache line; not covered by the CRC):
 *                 +0  8  items added            (atomic add; from version 5 plus the slots')
 *                 +8  8  total weight           (atomic add; from version 5 plus the slots')
 *                +16  4  attached writers       (atomic add)
 *                +20  4  flags, bit 0 = clean close
 *                +24 40  reserved, zero
 *    320    64  summary line (format version 2 and later; its own cache line, not
 *               covered by the CRC; laid out by the sketch kind, zero if it keeps none;
 *               in version 1 files reserved, zero and covered by the CRC)
 *    384    64  slot directory (format version 5 and later; not covered by the CRC; in older
 *               files reserved, zero and covered by the CRC, as are bytes 448..1983):
 *                 +0  4  slots in use           (atomic max: every slot below it was claimed once)
 *                 +4  4  flags, bit 0 = the total weight is near its limit: shared writers add
 *                        to it by compare-and-set with every slot read (CounterSlots)
 *                 +8 56  reserved, zero
 *    448  1536  24 counter slots (format version 5 and later; not covered by the CRC), one cache
 *               line each, claimed by one SHARED writer at a time:
 *                 +0  8  owner                  (a RegionLock process token, 0 when free)
 *                 +8  8  items added by the slot's writers   (atomic add)
 *                +16  8  weight added by the slot's writers  (atomic add)
 *                +24 40  reserved, zero
 *   1984    64  checksum line (format version 4 and later; not covered by the CRC; in older
 *               files reserved, zero and covered by the CRC):
 *                 +0  8  writer generation      (atomic add: +1 by every writer that opens)
 *                 +8  8  digest stamp: bit 0 = sealed by the last writer's close, bits 1..63 =
 *                        the writer generation the digests were computed at
 *                +16  8  digest lock            (a RegionLock word)
 *                +24 40  reserved, zero
 *   2048  2048  chunk digests (format version 4 and later; not covered by the CRC): 512 x
 *               CRC32C (int32), digest i of payload bytes [i C, min((i + 1) C, L)), unused ones zero;
 *               L is the payload length, C the smallest power of two of at least 64 KiB with
 *               L at most 512 C
 *   4096     -  payload
 * </pre>
 */
public final class SketchFileLayout {

    /** The magic, "MAPSKTCH" read as a little-endian long. */
    public static final long MAGIC = 0x4843544B5350414DL;
    /**
     * The newest format version of the header page; from {@value #PAYLOAD_CHECKSUM_VERSION} on, every
     * version has the checksum line and chunk digests this module keeps (versions 5 and 6 change only what
     * one kind's parameters and payload hold). What a version means to the payload and the parameters of each
     * sketch kind, and which versions of a kind are read and written, is the kind's format
     * description's (the engine's); the table per kind is in {@code docs/file-format.md}.
     */
    public static final int FORMAT_VERSION = 6;
    /** The oldest format version of the header page. */
    public static final int FIRST_FORMAT_VERSION = 1;
    /** The first format version with a {@linkplain #SUMMARY_OFFSET summary line}. */
    public static final int SUMMARY_LINE_VERSION = 2;
    /**
     * The first format version with a checksum of the payload in the header: the {@linkplain #CHECKSUM_OFFSET
     * checksum line} and the {@linkplain #DIGESTS_OFFSET chunk digests}, both outside the header's CRC.
     */
    public static final int PAYLOAD_CHECKSUM_VERSION = 4;
    /**
     * The first format version whose live counters are summed from the live line and the
     * {@linkplain #COUNTER_SLOTS_OFFSET counter slots}, all outside the header's CRC.
     */
    public static final int COUNTER_SLOTS_VERSION = 5;
    /** Size of the header page; the payload starts at this offset. */
    public static final int HEADER_LENGTH = 4096;
    /** Alignment of the payload offset and of the live line: one cache line. */
    public static final int CACHE_LINE = 64;
    /** Number of kind-specific int64 parameters in the header. */
    public static final int PARAMETER_COUNT = 16;

    /** Offset of the magic (int64). */
    public static final int MAGIC_OFFSET = 0;
    /** Offset of the format version (int32). */
    public static final int VERSION_OFFSET = 8;
    /** Offset of the header length (int32). */
    public static final int HEADER_LENGTH_OFFSET = 12;
    /** Offset of the sketch kind id (int32). */
    public static final int KIND_OFFSET = 16;
    /** Offset of the hash scheme id (int32). */
    public static final int HASH_SCHEME_OFFSET = 20;
    /** Offset of the hash seed (int64). */
    public static final int HASH_SEED_OFFSET = 24;
    /** Offset of the payload offset (int64). */
    public static final int PAYLOAD_OFFSET_OFFSET = 32;
    /** Offset of the payload length (int64). */
    public static final int PAYLOAD_LENGTH_OFFSET = 40;
    /** Offset of the creation time (int64, epoch milliseconds). */
    public static final int CREATED_OFFSET = 48;
    /** Offset of the header CRC32C (int32). */
    public static final int CRC_OFFSET = 56;
    /** Offset of the first kind-specific parameter (16 x int64). */
    public static final int PARAMETERS_OFFSET = 64;

    /** Offset of the live line: counters that writers update atomically. */
    public static final int LIVE_OFFSET = 256;
    /** Offset of the items-added counter (int64, atomic). */
    public static final int ITEMS_OFFSET = LIVE_OFFSET;
    /** Offset of the total-weight counter (int64, atomic). */
    public static final int WEIGHT_OFFSET = LIVE_OFFSET + 8;
    /** Offset of the attached-writers count (int32, atomic). */
    public static final int WRITERS_OFFSET = LIVE_OFFSET + 16;
    /** Offset of the flags word (int32, atomic). */
    public static final int FLAGS_OFFSET = LIVE_OFFSET + 20;
    /** First reserved byte after the live fields, up to the end of the live line. */
    public static final int LIVE_RESERVED_OFFSET = LIVE_OFFSET + 24;

    /**
     * Offset of the summary line (64 bytes, format version {@value #SUMMARY_LINE_VERSION} and later): live
     * values that a sketch kind keeps about its payload, updated by writers like the live line and, like
     * it, outside the CRC. Its layout belongs to the sketch kind; kinds that keep none leave it zero.
     */
    public static final int SUMMARY_OFFSET = LIVE_OFFSET + CACHE_LINE;

    /** Offset of the slot directory line (format version {@value #COUNTER_SLOTS_VERSION} and later). */
    public static final int SLOT_DIRECTORY_OFFSET = SUMMARY_OFFSET + CACHE_LINE;
    /** Offset of the number of counter slots in use (int32, atomic): every slot below it was claimed once. */
    public static final int SLOTS_IN_USE_OFFSET = SLOT_DIRECTORY_OFFSET;
    /** Offset of the slot directory's flags (int32, atomic). */
    public static final int SLOT_FLAGS_OFFSET = SLOT_DIRECTORY_OFFSET + 4;
    /** First reserved byte of the slot directory line, up to its end. */
    public static final int SLOT_DIRECTORY_RESERVED_OFFSET = SLOT_DIRECTORY_OFFSET + 8;
    /** Slot flag: the total weight is near its limit, and shared writers add to it by compare-and-set only. */
    public static final int SLOT_FLAG_WEIGHT_NEAR_LIMIT = 1;
    /** Offset of the first counter slot (format version {@value #COUNTER_SLOTS_VERSION} and later). */
    public static final int COUNTER_SLOTS_OFFSET = SLOT_DIRECTORY_OFFSET + CACHE_LINE;
    /** Number of counter slots, one cache line each, up to the checksum line. */
    public static final int COUNTER_SLOTS = 24;
    /** Offset in a slot line of its owner (int64, a {@link RegionLock} process token, 0 when free). */
    public static final int SLOT_OWNER = 0;
    /** Offset in a slot line of the items its writers added (int64, atomic). */
    public static final int SLOT_ITEMS = 8;
    /** Offset in a slot line of the weight its writers added (int64, atomic). */
    public static final int SLOT_WEIGHT = 16;
    /** First reserved byte of a slot line, up to its end. */
    public static final int SLOT_RESERVED = 24;

    /**
     * Offset of the checksum line (64 bytes, format version {@value #PAYLOAD_CHECKSUM_VERSION} and later):
     * the state of the payload's chunk digests, outside the CRC.
     */
    public static final int CHECKSUM_OFFSET = 1984;
    /** Offset of the writer generation (int64, atomic): every writer adds 1 when it opens the file. */
    public static final int GENERATION_OFFSET = CHECKSUM_OFFSET;
    /**
     * Offset of the digest stamp (int64): bit 0 set when the last writer's close sealed the digests, bits
     * 1..63 the writer generation they were computed at.
     */
    public static final int DIGEST_STAMP_OFFSET = CHECKSUM_OFFSET + 8;
    /** Offset of the digest lock (int64, a {@link RegionLock} word), held while a writer records the digests. */
    public static final int DIGEST_LOCK_OFFSET = CHECKSUM_OFFSET + 16;
    /** First reserved byte after the checksum line's fields, up to the end of the line. */
    public static final int CHECKSUM_RESERVED_OFFSET = CHECKSUM_OFFSET + 24;
    /**
     * Offset of the chunk digests (format version {@value #PAYLOAD_CHECKSUM_VERSION} and later):
     * {@value #MAX_CHUNKS} CRC32C values (int32), up to the end of the header page.
     */
    public static final int DIGESTS_OFFSET = 2048;
    /** Most chunks a payload is split into, one digest each. */
    public static final int MAX_CHUNKS = 512;
    /**
     * Smallest chunk: a chunk is the smallest power of two of at least this many bytes that splits the
     * payload into at most {@value #MAX_CHUNKS} chunks (the last one may be shorter).
     */
    public static final long MIN_CHUNK_BYTES = 64 * 1024;

    /** Flag bit: every writer that attached has detached through {@code close()}. */
    public static final int FLAG_CLEAN_CLOSE = 1;
    /** All flag bits this build defines; any other bit set is corruption. */
    public static final int KNOWN_FLAGS = FLAG_CLEAN_CLOSE;

    private SketchFileLayout() {}
}
