package io.mapsketch.membership;

import io.mapsketch.SketchFileException;
import io.mapsketch.SketchKind;
import io.mapsketch.internal.FormatVersions;
import io.mapsketch.internal.HeaderFormat;
import io.mapsketch.internal.HeaderParameter;
import io.mapsketch.internal.HeaderReader;
import io.mapsketch.internal.HeaderValue;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The header of a scalable Bloom filter's manifest (kind 4): the first link's capacity n0 in slot 0,
 * the compound rate P, the tightening ratio r and the growth factor s (as double bits) in slots 1 to
 * 3, and the chain's generation in slot 4; the payload is the {@link ScalableBloomManifest}.
 *
 * <p>Versions: reads 1 to 5, writes 5 (version 5 keeps the live counters in slots, one per shared writer). From version {@value #LISTED_LINKS_VERSION} the manifest lists
 * its links and names them by the generation, which is random and never zero; manifests of versions 1
 * to 3 have generation zero, a payload of one line and links named by index alone. Version 4 also adds
 * the payload checksum, which the header page keeps.
 *
 * @param initialCapacity n0, at least 1
 * @param falsePositiveRate P, in (0, 1)
 * @param tighteningRatio r, in (0, 1)
 * @param growthFactor s, in (0.999, 10^6)
 * @param generation the chain's generation: non-zero from version {@value #LISTED_LINKS_VERSION}, zero before
 */
record ScalableBloomFormat(
        long initialCapacity, double falsePositiveRate, double tighteningRatio, double growthFactor, long generation)
        implements HeaderFormat {

    /** The versions read and written. */
    static final FormatVersions VERSIONS = new FormatVersions(1, 5, 5);
    /** The first format version whose manifest lists its links and names them by generation. */
    static final int LISTED_LINKS_VERSION = 4;
    /** n0: slot 0. */
    static final HeaderParameter.Ranged INITIAL_CAPACITY =
            HeaderParameter.ranged(0, "initial capacity", 1, Long.MAX_VALUE);
    /** P: slot 1. */
    static final HeaderParameter.Interval FALSE_POSITIVE_RATE =
            HeaderParameter.interval(1, "false-positive rate", 0, 1);
    /** r: slot 2. */
    static final HeaderParameter.Interval TIGHTENING_RATIO = HeaderParameter.interval(2, "tightening ratio", 0, 1);
    /** s: slot 3. */
    static final HeaderParameter.Interval GROWTH_FACTOR = HeaderParameter.interval(3, "growth factor", 0.999, 1e6);
    /** The generation: slot 4, any value, whether zero checked against the version. */
    static final HeaderParameter.Ranged GENERATION =
            HeaderParameter.ranged(4, "link generation", Long.MIN_VALUE, Long.MAX_VALUE);
    /** What two filters that merge must share: everything that sizes their links. */
    static final List<HeaderParameter> SHAPE =
            List.of(INITIAL_CAPACITY, FALSE_POSITIVE_RATE, TIGHTENING_RATIO, GROWTH_FACTOR);

    /**
     * The parameters of a new chain, with its generation: random, never zero, drawn at each call.
     *
     * @throws IllegalArgumentException if no blocked filter reaches the first link's rate
     *     ({@link ScalableBloomChain#requireFirstLinkSizable})
     */
    static ScalableBloomFormat sized(
            long initialCapacity, double falsePositiveRate, double tighteningRatio, double growthFactor) {
        ScalableBloomChain.requireFirstLinkSizable(initialCapacity, falsePositiveRate, tighteningRatio);
        long generation;
        do {
            generation = ThreadLocalRandom.current().nextLong();
        } while (generation == 0);
        return new ScalableBloomFormat(initialCapacity, falsePositiveRate, tighteningRatio, growthFactor, generation);
    }

    /**
     * Reads and checks a header: its version, each parameter's range, a generation that is zero
     * exactly before version {@value #LISTED_LINKS_VERSION}, and the payload's length.
     */
    static ScalableBloomFormat read(HeaderReader header) throws SketchFileException {
        header.requireVersion(VERSIONS);
        long initial = header.read(INITIAL_CAPACITY);
        double rate = header.read(FALSE_POSITIVE_RATE);
        double ratio = header.read(TIGHTENING_RATIO);
        double growth = header.read(GROWTH_FACTOR);
        long generation = header.read(GENERATION);
        if ((generation == 0) == (header.version() >= LISTED_LINKS_VERSION)) {
            throw header.corrupt("header parameter '" + GENERATION.name() + "' (index " + GENERATION.index() + ") is "
                    + generation + ", expected " + (generation == 0 ? "a non-zero value" : "zero")
                    + " in format version " + header.version());
        }
        ScalableBloomFormat format = new ScalableBloomFormat(initial, rate, ratio, growth, generation);
        header.requirePayload(format.payloadBytes(), ScalableBloomManifest.payloadDerivation(format.listsLinks()));
        return format;
    }

    /**
     * Tells whether the manifest lists its links and names them by generation (version
     * {@value #LISTED_LINKS_VERSION} on, every one this build creates).
     *
     * @return {@code true} if the generation is not zero
     */
    boolean listsLinks() {
        return generation != 0;
    }

    @Override
    public SketchKind kind() {
        return SketchKind.SCALABLE_BLOOM;
    }

    @Override
    public FormatVersions versions() {
        return VERSIONS;
    }

    @Override
    public List<HeaderValue> values() {
        return List.of(
                INITIAL_CAPACITY.of(initialCapacity),
                FALSE_POSITIVE_RATE.of(falsePositiveRate),
                TIGHTENING_RATIO.of(tighteningRatio),
                GROWTH_FACTOR.of(growthFactor),
                GENERATION.of(generation));
    }

    @Override
    public long payloadBytes() {
        return ScalableBloomManifest.payloadBytes(listsLinks());
    }
}
