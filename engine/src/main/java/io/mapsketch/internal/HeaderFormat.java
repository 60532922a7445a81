package io.mapsketch.internal;

import io.mapsketch.IncompatibleSketchException;
import io.mapsketch.SketchKind;
import io.mapsketch.memory.HashScheme;
import java.util.List;

/**
 * A kind's format description, decoded: its header parameters as a typed record. Each kind has one,
 * in its family's package, which reads it from a header ({@link HeaderReader}) with every check the
 * kind makes on open, says which {@linkplain #versions() format versions} of the kind it reads and
 * writes, and encodes it for a new file; a merge compares two of them parameter by parameter.
 */
public interface HeaderFormat {

    /**
     * Returns the kind the header records.
     *
     * @return the kind
     */
    SketchKind kind();

    /**
     * Returns the format versions of the kind this build reads and writes.
     *
     * @return the versions
     */
    FormatVersions versions();

    /**
     * Returns every parameter with its value, in slot order.
     *
     * @return the named values
     */
    List<HeaderValue> values();

    /**
     * Returns the size of the payload the parameters imply.
     *
     * @return bytes, a multiple of 64
     */
    long payloadBytes();

    /**
     * Tells why sketches of these parameters cannot hash keys with a scheme: every kind runs the native
     * XXH3-64; a kind that runs a foreign scheme overrides this for the parameters it runs it at.
     *
     * @param scheme the header's hash scheme
     * @return {@code null} if the scheme runs, else what the kind runs, e.g. "BLOOM runs only XXH3_64"
     */
    default String schemeRefusal(HashScheme scheme) {
        return scheme == HashScheme.XXH3_64 ? null : kind() + " runs only " + HashScheme.XXH3_64;
    }

    /**
     * Refuses, before anything is written, to create a sketch of these parameters with a scheme it
     * cannot run ({@link #schemeRefusal}).
     *
     * @throws IllegalArgumentException naming the kind and the scheme
     */
    default void requireRunnable(HashScheme scheme) {
        String refusal = schemeRefusal(scheme);
        if (refusal != null) {
            throw new IllegalArgumentException(
                    "hash scheme = " + scheme + " cannot hash the keys of a " + kind() + ": " + refusal);
        }
    }

    /**
     * Returns the header's parameter slots: slot i is the value of the parameter of index i, unused
     * slots zero.
     *
     * @return at most 16 slots
     */
    default long[] encode() {
        List<HeaderValue> values = values();
        long[] slots = new long
                [values.stream().mapToInt(v -> v.parameter().index() + 1).max().orElse(0)];
        for (HeaderValue value : values) {
            slots[value.parameter().index()] = value.bits();
        }
        return slots;
    }

    /**
     * Returns the value this description holds for one of its parameters.
     *
     * @param parameter one of {@link #values()}' parameters
     * @return its value
     * @throws IllegalArgumentException if the description has no such parameter
     */
    default HeaderValue valueOf(HeaderParameter parameter) {
        for (HeaderValue value : values()) {
            if (value.parameter().equals(parameter)) {
                return value;
            }
        }
        throw new IllegalArgumentException(kind() + " has no header parameter '" + parameter.name() + "'");
    }

    /**
     * Refuses to combine with a sketch whose description holds other values for {@code shape}.
     *
     * @param theirs the other sketch's description, of the same kind
     * @param shape the parameters that must be equal, in the order they are compared
     * @throws IncompatibleSketchException naming the first parameter that differs and both values
     */
    default void requireSame(HeaderFormat theirs, List<? extends HeaderParameter> shape) {
        for (HeaderParameter parameter : shape) {
            HeaderValue mine = valueOf(parameter);
            HeaderValue other = theirs.valueOf(parameter);
            if (mine.bits() != other.bits()) {
                throw new IncompatibleSketchException(parameter.name(), mine.value(), other.value());
            }
        }
    }
}
