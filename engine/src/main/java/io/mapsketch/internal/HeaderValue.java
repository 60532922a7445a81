package io.mapsketch.internal;

/**
 * A header parameter with the value a sketch holds in it.
 *
 * @param parameter the parameter
 * @param bits the slot's 64 bits, as the header stores them
 */
public record HeaderValue(HeaderParameter parameter, long bits) {

    /**
     * Returns the value, as messages and {@code mapsketch info} show it.
     *
     * @return a {@code Long} or a {@code Double}
     */
    public Object value() {
        return parameter.decode(bits);
    }
}
