package io.mapsketch.internal;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The interpolation and error tables of DataSketches' HLL estimators, read once from the resource
 * {@code datasketches-hll-tables.txt}, which carries them as datasketches-java 9.1 defines them.
 */
final class DataSketchesHllTables {

    private static final String RESOURCE = "datasketches-hll-tables.txt";

    private static final Map<String, double[]> TABLES = load();

    /** The composite estimator's x table per lgK, index lgK - 4. */
    static final double[][] COMPOSITE_X = compositeX();

    /** The composite estimator's y stride per lgK, index lgK - 4. */
    static final double[] COMPOSITE_Y_STRIDE = table("composite-y-stride");

    static final double[] COUPON_X = table("coupon-x");
    static final double[] COUPON_Y = table("coupon-y");

    /** Relative errors of the bounds for lgK 4 to 12, index {@code 3 * (lgK - 4) + numStdDev - 1}. */
    static final double[] HIP_LOWER = table("hip-lb");

    static final double[] HIP_UPPER = table("hip-ub");
    static final double[] NON_HIP_LOWER = table("non-hip-lb");
    static final double[] NON_HIP_UPPER = table("non-hip-ub");

    private DataSketchesHllTables() {}

    private static double[][] compositeX() {
        double[][] tables = new double[DataSketchesHllEstimators.MAX_LG_K - DataSketchesHllEstimators.MIN_LG_K + 1][];
        for (int i = 0; i < tables.length; i++) {
            tables[i] = table("composite-x-" + (i + DataSketchesHllEstimators.MIN_LG_K));
        }
        return tables;
    }

    private static double[] table(String name) {
        double[] table = TABLES.get(name);
        if (table == null) {
            throw new IllegalStateException(RESOURCE + " has no table " + name);
        }
        return table;
    }

    private static Map<String, double[]> load() {
        try (InputStream in = DataSketchesHllTables.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the engine's jar");
            }
            BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.US_ASCII));
            Map<String, double[]> tables = new HashMap<>();
            String name = null;
            List<Double> values = new ArrayList<>();
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                if (Character.isLetter(line.charAt(0))) {
                    put(tables, name, values);
                    name = line.strip();
                    values.clear();
                    continue;
                }
                for (String token : line.strip().split("\\s+")) {
                    values.add(Double.parseDouble(token));
                }
            }
            put(tables, name, values);
            return tables;
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + RESOURCE, e);
        }
    }

    private static void put(Map<String, double[]> tables, String name, List<Double> values) {
        if (name != null) {
            tables.put(name, values.stream().mapToDouble(Double::doubleValue).toArray());
        }
    }
}
