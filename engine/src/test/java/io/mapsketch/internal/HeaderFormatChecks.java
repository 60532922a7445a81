package io.mapsketch.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;

import io.mapsketch.CorruptSketchFileException;
import io.mapsketch.SketchFileException;
import io.mapsketch.memory.HashScheme;
import io.mapsketch.memory.SketchHeader;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.SourceDSL;

/**
 * The two properties every kind's format description must have, over descriptions a test generates:
 * writing one to a header and reading it back gives it back, at every version the kind reads; and a
 * header holding, in any one parameter, a value that {@code docs/file-format.md} says the kind may
 * not hold there (given by the test, not taken from the description), or a payload that is not the
 * size the parameters imply, is refused as corrupt, naming that parameter (or the payload length).
 */
public final class HeaderFormatChecks {

    private static final int EXAMPLES = 500;
    private static final Path FILE = Path.of("checked.sketch");

    private HeaderFormatChecks() {}

    /** A kind's {@code read}: the description of a header, or its refusal. */
    @FunctionalInterface
    public interface Decoder<F extends HeaderFormat> {

        /** Reads and validates {@code header}. */
        F read(HeaderReader header) throws SketchFileException;
    }

    /**
     * Checks both properties over descriptions from {@code formats} at any version their kind reads.
     *
     * @param formats valid descriptions of one kind
     * @param decoder the kind's reader
     * @param refused for each parameter's name, values a file may not hold there: a {@code Long} for an
     *     integer parameter, a {@code Double} for a double one
     */
    public static <F extends HeaderFormat> void check(
            Gen<F> formats, Decoder<F> decoder, Map<String, List<? extends Number>> refused) {
        qt().withExamples(EXAMPLES)
                .forAll(formats, SourceDSL.integers().between(1, 1 << 16))
                .checkAssert((format, pick) -> {
                    FormatVersions versions = format.versions();
                    int version = versions.oldest() + pick % (versions.newest() - versions.oldest() + 1);
                    checkOne(format, version, decoder, refused);
                });
    }

    /**
     * Checks both properties for one description at one version.
     *
     * @param format a valid description
     * @param version a version its kind reads and at which it is valid
     * @param decoder the kind's reader
     * @param refused for each parameter's name, values a file may not hold there
     */
    public static <F extends HeaderFormat> void checkOne(
            F format, int version, Decoder<F> decoder, Map<String, List<? extends Number>> refused) {
        try {
            assertEquals(
                    format,
                    decoder.read(reader(format.encode(), format, format.payloadBytes(), version)),
                    "encoded at version " + version + ": " + format);
        } catch (SketchFileException e) {
            throw new AssertionError("a valid description was refused: " + format + " at version " + version, e);
        }
        assertEquals(
                refused.keySet(),
                format.values().stream().map(v -> v.parameter().name()).collect(Collectors.toSet()),
                "every parameter has its refused values stated");
        for (HeaderValue value : format.values()) {
            HeaderParameter parameter = value.parameter();
            for (Number invalid : refused.get(parameter.name())) {
                long bits = invalid instanceof Double d ? Double.doubleToLongBits(d) : invalid.longValue();
                long[] slots = format.encode();
                slots[parameter.index()] = bits;
                String message = refusal(decoder, reader(slots, format, format.payloadBytes(), version));
                assertTrue(
                        message.startsWith("header parameter '" + parameter.name() + "' (index " + parameter.index()
                                + ") is " + parameter.decode(bits) + ", expected "),
                        message);
            }
        }
        long otherLength = format.payloadBytes() + (format.payloadBytes() > 64 ? -64 : 64);
        String message = refusal(decoder, reader(format.encode(), format, otherLength, version));
        assertTrue(
                message.startsWith(
                        "payload length is " + otherLength + " bytes, expected " + format.payloadBytes() + " ("),
                message);
    }

    /** The header of a file holding these slots for the description's kind, created now. */
    public static HeaderReader reader(long[] slots, HeaderFormat format, long payloadBytes, int version) {
        return new HeaderReader(
                SketchHeader.forNewSketch(format.kind().id(), HashScheme.XXH3_64, 0, slots, payloadBytes)
                        .withFormatVersion(version),
                FILE);
    }

    /** The refusal's message without the file's prefix; fails unless the header is refused as corrupt. */
    public static String refusal(Decoder<?> decoder, HeaderReader header) {
        CorruptSketchFileException refused = assertThrows(CorruptSketchFileException.class, () -> decoder.read(header));
        assertEquals(FILE, refused.file(), refused.getMessage());
        return refused.getMessage().substring(refused.getMessage().indexOf(": ") + 2);
    }

    /** Doubles a parameter kept strictly inside (0, 1) may not hold. */
    public static final List<Double> OUTSIDE_UNIT =
            List.of(0.0, -0.0, 1.0, -0.25, 1.5, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY);
    /** Counts a parameter of at least one item may not hold. */
    public static final List<Long> BELOW_ONE = List.of(0L, -1L, Long.MIN_VALUE);
}
