/**
 * Micrometer gauges for open mapsketch sketches: items, fill, current error, saturation, attached writers
 * and bytes, read from the sketch when the registry asks. Optional: the engine does not depend on it.
 */
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"})
module io.mapsketch.micrometer {
    requires transitive io.mapsketch.engine;
    // The binder is Micrometer's MeterBinder; micrometer-core is an automatic module (no descriptor).
    requires transitive micrometer.core;

    exports io.mapsketch.micrometer;
}
