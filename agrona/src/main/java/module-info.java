/**
 * Agrona {@code DirectBuffer} ranges as keys of the engine's sketches, for services that hold their
 * keys in Agrona buffers; the engine itself does not depend on Agrona.
 */
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"})
module io.mapsketch.agrona {
    requires transitive io.mapsketch.engine;
    // The methods take Agrona's DirectBuffer; Agrona is an automatic module (no descriptor).
    requires transitive org.agrona;

    exports io.mapsketch.agrona;
}
