package io.mapsketch.jmh;

import java.nio.file.Path;
import org.openjdk.jmh.annotations.Benchmark;

/**
 * The floor under every latency percentile: {@link LatencyBenchmark}'s mode and settings around a call
 * that does nothing but read a field, so its percentiles are the cost of JMH's two
 * {@code System.nanoTime()} reads and its sampling loop, the timer's resolution, and whatever the
 * machine adds (interrupts, other work). A latency row's percentile minus this one's is, roughly, the
 * call's own time.
 */
public class TimerFloorBenchmark extends LatencyBenchmark {

    private long value = 42;

    /** Creates the state; JMH calls this once per fork. */
    public TimerFloorBenchmark() {}

    @Override
    String impl() {
        return "none";
    }

    @Override
    void prepare(String impl, Path file, String method) {}

    @Override
    SharedFileWriter.Keys writerKeys() {
        throw new IllegalStateException("the timer floor has no writer");
    }

    @Override
    void closeSketch() {}

    /**
     * Reads a field.
     *
     * @return the field
     */
    @Benchmark
    public long emptyCall() {
        return value;
    }
}
