package io.mapsketch.cardinality;

import io.mapsketch.SketchFileException;
import io.mapsketch.SketchKind;
import io.mapsketch.internal.DataSketchesCoupons;
import io.mapsketch.internal.FormatVersions;
import io.mapsketch.internal.HeaderFormat;
import io.mapsketch.internal.HeaderParameter;
import io.mapsketch.internal.HeaderReader;
import io.mapsketch.internal.HeaderValue;
import io.mapsketch.memory.HashScheme;
import java.util.List;

/**
 * The header of a HyperLogLog file (kind 8): the precision p in slot 0; the payload is the
 * {@code 2^p} one-byte registers, rounded up to a whole 64-byte line ({@link HyperLogLogLayout}).
 *
 * <p>Hash schemes: XXH3-64 at precisions 4 to 18; Redis's ({@code REDIS_HLL}) at precision 14;
 * DataSketches' ({@code DATASKETCHES_MURMUR3_128}) at precisions 4 to 21.
 *
 * <p>Versions: reads 1 to 6; writes 5, and 6 for a file with DataSketches' coupon area. Version 5 keeps the
 * live counters in slots, one per shared writer. A version 1 file has no summary line; from version 2 the
 * header's summary line keeps the estimate's inputs ({@link HyperLogLogSummaryLine}); version 3 is
 * version 2 for this kind; version 4 adds the payload checksum, which the header page keeps.
 *
 * <p>DataSketches' coupon modes (version 6): a file of {@code DATASKETCHES_MURMUR3_128} that this build
 * creates has, after the registers, a coupon area of {@link DataSketchesCoupons#areaBytes} bytes (64 below
 * precision 8, else {@code 2^(p-1)}), and its summary line's byte 40 the coupon word that says whether the
 * file is in DataSketches' LIST or SET mode ({@link DataSketchesCoupons}). A build that reads only to version
 * 5 refuses such a file as of a newer version. A file of that scheme at version 5 or earlier holds registers
 * only, its coupon word zero, and answers as it did; one of version 5 with the area (its payload length
 * says so) is read with it.
 *
 * @param precision p, in [{@value HyperLogLog#MIN_PRECISION}, {@value HyperLogLog#MAX_DATASKETCHES_PRECISION}]
 * @param couponArea whether the payload has DataSketches' coupon area after the registers
 */
record HyperLogLogFormat(int precision, boolean couponArea) implements HeaderFormat {

    /** The versions of a file without the coupon area, and the one it is written at. */
    static final FormatVersions VERSIONS = new FormatVersions(1, 5, 5);
    /** The versions read (of a file with the coupon area, 5 and 6), and the one a file with the area is written at. */
    static final FormatVersions WITH_COUPON_AREA = new FormatVersions(1, 6, 6);
    /** The first version whose files of DataSketches' scheme have the coupon area. */
    private static final int COUPON_AREA_VERSION = 6;
    /** p: slot 0. */
    static final HeaderParameter.Ranged PRECISION =
            HeaderParameter.ranged(0, "precision", HyperLogLog.MIN_PRECISION, HyperLogLog.MAX_DATASKETCHES_PRECISION);
    /** What two sketches that merge register by register must share. */
    static final List<HeaderParameter> SHAPE = List.of(PRECISION);

    /** The format of registers alone, without a coupon area. */
    HyperLogLogFormat(int precision) {
        this(precision, false);
    }

    /** Reads and checks a header: its version, the precision's range and the payload's length. */
    static HyperLogLogFormat read(HeaderReader header) throws SketchFileException {
        header.requireVersion(WITH_COUPON_AREA);
        int precision = (int) header.read(PRECISION);
        boolean dataSketches = header.header().hashScheme() == HashScheme.DATASKETCHES_MURMUR3_128;
        HyperLogLogFormat withArea = new HyperLogLogFormat(precision, true);
        boolean areaVersion = header.version() >= COUPON_AREA_VERSION;
        if (areaVersion && !dataSketches) {
            throw header.corrupt("header field 'format version' is " + header.version() + ", which only files of "
                    + HashScheme.DATASKETCHES_MURMUR3_128 + " have, and the hash scheme is "
                    + header.header().hashScheme());
        }
        boolean couponArea =
                dataSketches && (areaVersion || header.header().payloadLength() == withArea.payloadBytes());
        HyperLogLogFormat format = couponArea ? withArea : new HyperLogLogFormat(precision);
        header.requirePayload(
                format.payloadBytes(),
                areaVersion
                        ? "2^precision one-byte registers, rounded up to 64 bytes, then the coupon area of "
                                + DataSketchesCoupons.areaBytes(precision) + " bytes"
                        : dataSketches
                                ? "2^precision one-byte registers, rounded up to 64 bytes, then the coupon area of "
                                        + DataSketchesCoupons.areaBytes(precision) + " bytes, or the registers alone"
                                : "2^precision one-byte registers, rounded up to 64 bytes");
        return format;
    }

    @Override
    public SketchKind kind() {
        return SketchKind.HYPERLOGLOG;
    }

    @Override
    public FormatVersions versions() {
        return couponArea ? WITH_COUPON_AREA : VERSIONS;
    }

    @Override
    public List<HeaderValue> values() {
        return List.of(PRECISION.of(precision));
    }

    @Override
    public long payloadBytes() {
        return HyperLogLogLayout.payloadBytes(precision) + (couponArea ? DataSketchesCoupons.areaBytes(precision) : 0);
    }

    /** Runs XXH3-64 at precisions 4 to 18, Redis's scheme at Redis's precision, 14, and DataSketches' at 4 to 21. */
    @Override
    public String schemeRefusal(HashScheme scheme) {
        return switch (scheme) {
            case XXH3_64 ->
                precision <= HyperLogLog.MAX_PRECISION
                        ? null
                        : "XXH3_64 runs at precisions 4 to 18, not " + precision
                                + " (precisions 19 to 21 hold only for DATASKETCHES_MURMUR3_128)";
            case DATASKETCHES_MURMUR3_128 -> null;
            case REDIS_HLL ->
                precision == RedisCountEstimator.PRECISION
                        ? null
                        : "REDIS_HLL runs only at precision 14, Redis's, not at precision " + precision;
            default -> kind() + " runs XXH3_64, and REDIS_HLL at precision 14";
        };
    }
}
