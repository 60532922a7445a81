/**
 * {@link io.mapsketch.micrometer.SketchMetrics}, the {@code MeterBinder} of one open sketch. The meters,
 * their units and what each costs per scrape are listed in {@code docs/metrics.md}.
 */
package io.mapsketch.micrometer;
