package io.mapsketch.jmh;

import static io.mapsketch.jmh.BenchmarkSettings.SKETCH_SEED;

import com.dynatrace.hash4j.distinctcount.UltraLogLog;
import com.dynatrace.hash4j.hashing.Hasher64;
import com.dynatrace.hash4j.hashing.Hashing;
import io.mapsketch.OpenMode;
import io.mapsketch.cardinality.HyperLogLog;
import java.io.IOException;
import java.util.Locale;
import org.apache.datasketches.hll.HllSketch;
import org.apache.datasketches.hll.TgtHllType;

/** The distinct-count rows of {@link MemoryFootprint}: the HyperLogLog sketches at two precisions. */
final class DistinctCountFootprint {

    private static final String QUESTION = "distinct count";
    private static final int HLL_KEYS = 1 << 20;
    private static final Hasher64 XXH3 = Hashing.xxh3_64();

    private DistinctCountFootprint() {}

    /**
     * Measures every sketch at precisions 12 and 14, after {@value #HLL_KEYS} distinct keys.
     *
     * @param recorder where the rows go
     * @throws IOException if a sketch file cannot be created, measured or deleted
     */
    static void measure(FootprintRecorder recorder) throws IOException {
        long[] keys = FootprintRecorder.keys(0, HLL_KEYS);
        for (int precision : new int[] {12, 14}) {
            String setting = String.format(
                    Locale.ROOT,
                    "HyperLogLog p = %d (%,d registers), %,d distinct keys",
                    precision,
                    1 << precision,
                    HLL_KEYS);
            recorder.mapsketch(
                    QUESTION,
                    setting,
                    "mapsketch",
                    file -> HyperLogLog.builder()
                            .precision(precision)
                            .seed(SKETCH_SEED)
                            .create(file, OpenMode.EXCLUSIVE),
                    sketch -> sketch.addAll(keys));
            for (TgtHllType type : new TgtHllType[] {TgtHllType.HLL_8, TgtHllType.HLL_4}) {
                HllSketch sketch = new HllSketch(precision, type);
                for (long key : keys) {
                    sketch.update(key);
                }
                recorder.add(
                        QUESTION,
                        setting,
                        type == TgtHllType.HLL_8 ? "datasketches-hll8" : "datasketches-hll4",
                        sketch.getUpdatableSerializationBytes(),
                        "getUpdatableSerializationBytes()",
                        String.format(
                                Locale.ROOT,
                                "lgK = %d; compact form %,d bytes",
                                precision,
                                sketch.getCompactSerializationBytes()));
            }
            com.dynatrace.hash4j.distinctcount.HyperLogLog hll =
                    com.dynatrace.hash4j.distinctcount.HyperLogLog.create(precision);
            UltraLogLog ull = UltraLogLog.create(precision);
            for (long key : keys) {
                long hash = XXH3.hashLongToLong(key);
                hll.add(hash);
                ull.add(hash);
            }
            recorder.add(
                    QUESTION, setting, "hash4j-hll", hll.getState().length, "getState().length", "6-bit registers");
            recorder.add(QUESTION, setting, "hash4j-ull", ull.getState().length, "getState().length", "");
        }
    }
}
