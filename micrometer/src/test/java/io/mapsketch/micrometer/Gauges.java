package io.mapsketch.micrometer;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.TreeMap;

/** What a registry's gauges read now, by meter name. */
final class Gauges {

    private Gauges() {}

    /** The value of the one gauge named {@code name}; fails if there is none. */
    static double value(MeterRegistry registry, String name) {
        return registry.get(name).gauge().value();
    }

    /** Every gauge's name and value, sorted by name. */
    static Map<String, Double> values(MeterRegistry registry) {
        Map<String, Double> values = new TreeMap<>();
        for (Meter meter : registry.getMeters()) {
            values.put(meter.getId().getName(), ((Gauge) meter).value());
        }
        return values;
    }
}
