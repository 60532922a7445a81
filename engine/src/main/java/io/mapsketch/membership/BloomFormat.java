package io.mapsketch.membership;

import static io.mapsketch.membership.FilterParameters.EXPECTED_ITEMS;
import static io.mapsketch.membership.FilterParameters.FALSE_POSITIVE_RATE;
import static io.mapsketch.membership.ProbedLayout.HASHES;

import io.mapsketch.SketchFileException;
import io.mapsketch.SketchKind;
import io.mapsketch.internal.FormatVersions;
import io.mapsketch.internal.HeaderFormat;
import io.mapsketch.internal.HeaderParameter;
import io.mapsketch.internal.HeaderReader;
import io.mapsketch.internal.HeaderValue;
import io.mapsketch.memory.HashScheme;
import java.util.List;

/**
 * The header of a classic Bloom filter file (kind 1): bits m in slot 0, probes k in slot 1, the
 * expected items n and the rate p it was sized for in slots 2 and 3, and in slot 4 the variant of the hash
 * scheme's probes ({@link BloomProbing}: 0 for mapsketch's own, the Guava funnel or the Spark version of an
 * imported filter); the payload is m bits rounded up to whole 64-byte lines. An imported filter has the
 * m of its origin (64 times its words), and n and p follow from m and k ({@link #imported}).
 *
 * <p>Versions: reads 1 to 5, writes 5 (version 5 keeps the live counters in slots, one per shared writer). Files of versions 1 and 2 add the enhanced term of their
 * probes to the probe's 64-bit value, from version {@value ProbedLayout#ENHANCED_PROBES_VERSION} in
 * cells ({@link ProbeCells}); version 4 adds the payload checksum, which the header page keeps.
 *
 * @param bits m, in [1, {@value #MAX_BITS}]
 * @param hashes k, in [1, 64]
 * @param expectedItems n, at least 1
 * @param falsePositiveRate p, in (0, 1)
 * @param variant the probes' variant of the hash scheme, in [0, 2]
 */
record BloomFormat(long bits, int hashes, long expectedItems, double falsePositiveRate, int variant)
        implements HeaderFormat {

    /** The versions read and written. */
    static final FormatVersions VERSIONS = new FormatVersions(1, 5, 5);
    /** The most bits the format allows: {@code 2^63 - 512}, whose lines of 512 bits a file can hold. */
    static final long MAX_BITS = Long.MAX_VALUE - 511;
    /** m, the bits: slot 0. */
    static final HeaderParameter.Ranged BITS = HeaderParameter.ranged(0, "bits", 1, MAX_BITS);
    /** The probes' variant of the hash scheme ({@link BloomProbing}): slot 4, 0 for mapsketch's own. */
    static final HeaderParameter.Ranged VARIANT = HeaderParameter.ranged(4, "probe variant", 0, 2);
    /** What two filters that merge must share. */
    static final List<HeaderParameter> SHAPE = List.of(BITS, HASHES, VARIANT);

    /** Sizes a filter for n items at rate p; refuses what the format cannot hold. */
    static BloomFormat sized(long expectedItems, double falsePositiveRate) {
        ProbedLayout layout = ProbedLayout.sized(expectedItems, falsePositiveRate, MAX_BITS, "classic Bloom filter");
        return new BloomFormat(layout.cells(), layout.hashes(), expectedItems, falsePositiveRate, 0);
    }

    /**
     * The format of a filter imported with its origin's probes, {@code 64 * words} bits and k probes: n is
     * the capacity at which k is the best number of probes, {@code round(m ln 2 / k)}, and p the rate
     * there, {@code 2^-k}.
     */
    static BloomFormat imported(BloomProbing probing, long words, int hashes) {
        long bits = words * Long.SIZE;
        long items = Math.max(1, Math.round(bits * Math.log(2) / hashes));
        return new BloomFormat(bits, hashes, items, Math.scalb(1.0, -hashes), probing.variant());
    }

    /** Reads and checks a header: its version, each parameter's range and the payload's length. */
    static BloomFormat read(HeaderReader header) throws SketchFileException {
        header.requireVersion(VERSIONS);
        BloomFormat format = new BloomFormat(
                header.read(BITS),
                (int) header.read(HASHES),
                header.read(EXPECTED_ITEMS),
                header.read(FALSE_POSITIVE_RATE),
                (int) header.read(VARIANT));
        header.requirePayload(format.payloadBytes(), "bits rounded up to whole 64-byte lines");
        String seedRefusal =
                format.seedRefusal(header.header().hashScheme(), header.header().hashSeed());
        if (seedRefusal != null) {
            throw header.corrupt(seedRefusal);
        }
        return format;
    }

    /**
     * Tells why a Spark filter's probes cannot take a seed: Spark's seeds are {@code int}s, and version 1
     * hashes with seed 0; {@code null} for every other seed and scheme.
     */
    String seedRefusal(HashScheme scheme, long seed) {
        if (scheme != HashScheme.SPARK_MURMUR3_32) {
            return null;
        }
        if (variant == 1 && seed != 0) {
            return "a Spark version 1 filter hashes with seed 0, this one's seed is " + seed;
        }
        return seed == (int) seed ? null : "a Spark filter's seed is an int, this one's is " + seed;
    }

    /** Bytes of the bit array of m bits: whole lines of 512 bits. */
    static long payloadBytes(long bits) {
        return Math.ceilDiv(bits, 512) * 64;
    }

    @Override
    public SketchKind kind() {
        return SketchKind.BLOOM;
    }

    @Override
    public FormatVersions versions() {
        return VERSIONS;
    }

    @Override
    public List<HeaderValue> values() {
        return List.of(
                BITS.of(bits),
                HASHES.of(hashes),
                EXPECTED_ITEMS.of(expectedItems),
                FALSE_POSITIVE_RATE.of(falsePositiveRate),
                VARIANT.of(variant));
    }

    /**
     * Runs XXH3-64 with mapsketch's probes (variant 0), Guava's scheme with either funnel (1 UTF-8, 2
     * long) and Spark's with either version (1, 2), at 64 times a whole number of words.
     */
    @Override
    public String schemeRefusal(HashScheme scheme) {
        BloomProbing probing = BloomProbing.of(scheme, variant);
        if (probing == null) {
            return kind() + " runs XXH3_64 with probe variant 0, GUAVA_MURMUR3_128 and SPARK_MURMUR3_32 with"
                    + " variant 1 or 2, not " + scheme + " with variant " + variant;
        }
        if (probing != BloomProbing.MAPSKETCH && bits % Long.SIZE != 0) {
            return scheme + " probes a whole number of 64-bit words, not " + bits + " bits";
        }
        return null;
    }

    @Override
    public long payloadBytes() {
        return payloadBytes(bits);
    }
}
