package io.mapsketch.micrometer;

import io.mapsketch.Sketch;
import java.util.function.ToDoubleFunction;

/**
 * One figure a sketch of some type answers, as one gauge: its meter name, base unit ({@code null} for
 * none), description, whether reading it passes over the payload, and how to read it.
 */
record SketchFigure(
        String name,
        String baseUnit,
        String description,
        boolean passesOverPayload,
        Class<?> type,
        ToDoubleFunction<Sketch> read) {

    /** A figure of sketches of {@code type} that costs a few loads (or nothing: a header parameter). */
    static <S extends Sketch> SketchFigure loaded(
            String name, String baseUnit, String description, Class<S> type, ToDoubleFunction<? super S> read) {
        return new SketchFigure(name, baseUnit, description, false, type, reader(type, read));
    }

    /** A figure of sketches of {@code type} that costs up to a pass over the payload. */
    static <S extends Sketch> SketchFigure passed(
            String name, String baseUnit, String description, Class<S> type, ToDoubleFunction<? super S> read) {
        return new SketchFigure(name, baseUnit, description, true, type, reader(type, read));
    }

    private static <S extends Sketch> ToDoubleFunction<Sketch> reader(Class<S> type, ToDoubleFunction<? super S> read) {
        return sketch -> read.applyAsDouble(type.cast(sketch));
    }

    /** Tells whether {@code sketch} answers this figure. */
    boolean appliesTo(Sketch sketch) {
        return type.isInstance(sketch);
    }
}
