package io.mapsketch.spark;

import java.util.List;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.analysis.FunctionRegistry;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.execution.aggregate.ScalaAggregator$;
import org.apache.spark.sql.expressions.UserDefinedAggregator;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.DataTypes;
import scala.Function1;
import scala.Option;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The mapsketch functions of Spark SQL and of the {@link Column} API. {@link #register} makes them known to a
 * session's SQL; the static methods here call them by name in that session, so register first.
 *
 * <p>Aggregates return BINARY, the bytes of a complete mapsketch file (its header and payload): written to a
 * file ({@link MapsketchFiles#write}), it is a sketch that {@code X.open(path)} and {@code mapsketch info}
 * read. Their parameters must be constants, checked by the engine's builders when the query is analysed. Keys
 * are string (hashed as its UTF-8 bytes, as the command hashes a line), bigint or int (as the engine's long
 * key) or binary (its bytes) columns; null keys are skipped. The bytes depend on the items alone, not on the
 * partitioning or the time of the build (the header's creation time is the epoch); a Top-K sketch's candidates
 * depend on the order its keys arrive in as well (its counters do not).
 *
 * <p>Scalars read such bytes; a null sketch, key or count gives null.
 */
public final class MapsketchFunctions {

    /** The aggregate building a Bloom filter. */
    public static final String BLOOM_AGG = "mapsketch_bloom_agg";
    /** The aggregate building a HyperLogLog. */
    public static final String HLL_AGG = "mapsketch_hll_agg";
    /** The aggregate building a Count-Min sketch. */
    public static final String CMS_AGG = "mapsketch_cms_agg";
    /** The aggregate building a Top-K sketch. */
    public static final String TOPK_AGG = "mapsketch_topk_agg";
    /** The aggregate merging sketches. */
    public static final String MERGE_AGG = "mapsketch_merge_agg";
    /** The scalar asking a membership filter. */
    public static final String CONTAINS = "mapsketch_contains";
    /** The scalar estimating a HyperLogLog's distinct keys. */
    public static final String ESTIMATE = "mapsketch_estimate";
    /** The scalar estimating a key's count in a frequency sketch. */
    public static final String COUNT = "mapsketch_count";
    /** The scalar listing a Top-K sketch's heaviest keys. */
    public static final String TOP = "mapsketch_top";
    /** The scalar turning a DataSketches HLL image (Spark's {@code hll_sketch_agg}) into a HyperLogLog file. */
    public static final String FROM_DATASKETCHES_HLL = "mapsketch_from_datasketches_hll";

    private MapsketchFunctions() {}

    /**
     * Registers the functions in a session's SQL as temporary functions (replacing earlier ones of the names).
     *
     * @param spark a session of this JVM (not a Spark Connect client)
     * @throws IllegalArgumentException if the session is not an in-process ("classic") one
     */
    public static void register(SparkSession spark) {
        if (!(spark instanceof org.apache.spark.sql.classic.SparkSession classic)) {
            throw new IllegalArgumentException("spark = " + spark.getClass().getName()
                    + ", must be an in-process session (mapsketch's functions run in the executors' JVMs)");
        }
        FunctionRegistry registry = classic.sessionState().functionRegistry();
        registry.createOrReplaceTempFunction(BLOOM_AGG, builder(MapsketchFunctions::bloom), "java_udf");
        registry.createOrReplaceTempFunction(HLL_AGG, builder(MapsketchFunctions::hll), "java_udf");
        registry.createOrReplaceTempFunction(CMS_AGG, builder(MapsketchFunctions::countMin), "java_udf");
        registry.createOrReplaceTempFunction(TOPK_AGG, builder(MapsketchFunctions::topK), "java_udf");
        registry.createOrReplaceTempFunction(MERGE_AGG, builder(MapsketchFunctions::merge), "java_udf");
        spark.udf().register(CONTAINS, new ScalarFunctions.Contains(), DataTypes.BooleanType);
        spark.udf().register(COUNT, new ScalarFunctions.Count(), DataTypes.LongType);
        spark.udf().register(ESTIMATE, new ScalarFunctions.Estimate(), DataTypes.DoubleType);
        spark.udf().register(TOP, new ScalarFunctions.Top(), ScalarFunctions.Top.TYPE);
        spark.udf().register(FROM_DATASKETCHES_HLL, new ScalarFunctions.FromDataSketchesHll(), DataTypes.BinaryType);
    }

    /**
     * A blocked Bloom filter of the keys, sized for {@code expectedItems} at {@code falsePositiveRate}.
     *
     * @param keys a string, bigint, int or binary column
     * @param expectedItems the items the filter is sized for
     * @param falsePositiveRate the false-positive rate at that many items
     * @return the BINARY column of the filter's file
     */
    public static Column mapsketch_bloom_agg(Column keys, long expectedItems, double falsePositiveRate) {
        return functions.call_function(BLOOM_AGG, keys, functions.lit(expectedItems), functions.lit(falsePositiveRate));
    }

    /**
     * A Bloom filter of the keys in the layout {@code layout} names: {@code "blocked"} or {@code "classic"}.
     *
     * @param keys a string, bigint, int or binary column
     * @param expectedItems the items the filter is sized for
     * @param falsePositiveRate the false-positive rate at that many items
     * @param layout {@code "blocked"} or {@code "classic"}
     * @return the BINARY column of the filter's file
     */
    public static Column mapsketch_bloom_agg(Column keys, long expectedItems, double falsePositiveRate, String layout) {
        return functions.call_function(
                BLOOM_AGG, keys, functions.lit(expectedItems), functions.lit(falsePositiveRate), functions.lit(layout));
    }

    /**
     * A HyperLogLog of the keys with 2^{@code precision} registers.
     *
     * @param keys a string, bigint, int or binary column
     * @param precision the precision, as {@code HyperLogLog.builder().precision} takes it
     * @return the BINARY column of the sketch's file
     */
    public static Column mapsketch_hll_agg(Column keys, int precision) {
        return functions.call_function(HLL_AGG, keys, functions.lit(precision));
    }

    /**
     * A Count-Min sketch counting each row's key once.
     *
     * @param keys a string, bigint, int or binary column
     * @param epsilon the error bound, a fraction of the total count
     * @param delta the probability that an estimate exceeds it
     * @return the BINARY column of the sketch's file
     */
    public static Column mapsketch_cms_agg(Column keys, double epsilon, double delta) {
        return functions.call_function(CMS_AGG, keys, functions.lit(epsilon), functions.lit(delta));
    }

    /**
     * A Count-Min sketch counting each row's key {@code weight} times (null or 0 weights add nothing).
     *
     * @param keys a string, bigint, int or binary column
     * @param weight a non-negative whole-number column
     * @param epsilon the error bound, a fraction of the total count
     * @param delta the probability that an estimate exceeds it
     * @return the BINARY column of the sketch's file
     */
    public static Column mapsketch_cms_agg(Column keys, Column weight, double epsilon, double delta) {
        return functions.call_function(CMS_AGG, keys, weight, functions.lit(epsilon), functions.lit(delta));
    }

    /**
     * A Top-K sketch of the keys keeping the {@code k} heaviest, over a Count-Min sketch of epsilon 0.001 and
     * delta 0.01 (as {@code mapsketch topk create}); string and binary keys of at most 64 bytes (a longer one
     * fails the job with the engine's message).
     *
     * @param keys a string, bigint, int or binary column
     * @param k the heaviest keys kept, as {@code TopK.builder().k} takes it
     * @return the BINARY column of the sketch's file
     */
    public static Column mapsketch_topk_agg(Column keys, int k) {
        return functions.call_function(TOPK_AGG, keys, functions.lit(k));
    }

    /**
     * A Top-K sketch of the keys keeping the {@code k} heaviest, over a Count-Min sketch of {@code epsilon}
     * and {@code delta}.
     *
     * @param keys a string, bigint, int or binary column
     * @param k the heaviest keys kept
     * @param epsilon the Count-Min error bound, a fraction of the total count
     * @param delta the probability that an estimate exceeds it
     * @return the BINARY column of the sketch's file
     */
    public static Column mapsketch_topk_agg(Column keys, int k, double epsilon, double delta) {
        return functions.call_function(TOPK_AGG, keys, functions.lit(k), functions.lit(epsilon), functions.lit(delta));
    }

    /**
     * The merge of a column of sketch files of one kind, shape, hash scheme and seed; a mismatch fails the job
     * with the engine's message.
     *
     * @param sketches a BINARY column of sketch files
     * @return the BINARY column of the merged sketch's file, null for a group of no sketch
     */
    public static Column mapsketch_merge_agg(Column sketches) {
        return functions.call_function(MERGE_AGG, sketches);
    }

    /**
     * Whether a membership filter might hold each key.
     *
     * @param sketch a BINARY column of filter files
     * @param keys a string, bigint, int or binary column
     * @return a BOOLEAN column: false means the key was never added
     */
    public static Column mapsketch_contains(Column sketch, Column keys) {
        return functions.call_function(CONTAINS, sketch, keys);
    }

    /**
     * A HyperLogLog's estimate of its distinct keys.
     *
     * @param sketch a BINARY column of HyperLogLog files
     * @return a DOUBLE column
     */
    public static Column mapsketch_estimate(Column sketch) {
        return functions.call_function(ESTIMATE, sketch);
    }

    /**
     * A frequency sketch's estimate of each key's count (never below the true count).
     *
     * @param sketch a BINARY column of Count-Min or Top-K files
     * @param keys a string, bigint, int or binary column
     * @return a BIGINT column
     */
    public static Column mapsketch_count(Column sketch, Column keys) {
        return functions.call_function(COUNT, sketch, keys);
    }

    /**
     * A Top-K sketch's heaviest keys, largest count first, equal counts by key bytes.
     *
     * @param sketch a BINARY column of Top-K files
     * @param n how many to list, at least 0 (more than the sketch's k lists all)
     * @return an ARRAY&lt;STRUCT&lt;item: BINARY, count: BIGINT&gt;&gt; column: each key's bytes (a string's UTF-8
     *     bytes, a bigint's or int's eight little-endian bytes) and its Count-Min estimate
     */
    public static Column mapsketch_top(Column sketch, int n) {
        return functions.call_function(TOP, sketch, functions.lit(n));
    }

    /**
     * The HyperLogLog file of a DataSketches HLL image, such as Spark's {@code hll_sketch_agg(keys, lgK)}
     * returns: precision lgK, hashing as DataSketches does ({@code HyperLogLog.builder().dataSketchesHashing()}),
     * {@code mapsketch_estimate} of it DataSketches' estimate of the image (unrounded: Spark's
     * {@code hll_sketch_estimate} rounds it to a whole number).
     *
     * @param image a BINARY column of DataSketches HLL images, of any mode and type
     * @return the BINARY column of the HyperLogLog's file; null for a null image
     */
    public static Column mapsketch_from_datasketches_hll(Column image) {
        return functions.call_function(FROM_DATASKETCHES_HLL, image);
    }

    private static Expression bloom(List<Expression> arguments) {
        Arguments.requireCount(
                BLOOM_AGG, arguments, 3, 4, "(keys, expectedItems, falsePositiveRate[, 'blocked' | 'classic'])");
        boolean classic = false;
        if (arguments.size() == 4) {
            String layout = Arguments.string(BLOOM_AGG, arguments.get(3), "layout");
            if (!layout.equals("classic") && !layout.equals("blocked")) {
                throw new IllegalArgumentException(
                        BLOOM_AGG + ": layout = '" + layout + "', must be 'blocked' or 'classic'");
            }
            classic = layout.equals("classic");
        }
        SketchSpec spec = new SketchSpec.Bloom(
                Arguments.wholeNumber(BLOOM_AGG, arguments.get(1), "expectedItems"),
                Arguments.number(BLOOM_AGG, arguments.get(2), "falsePositiveRate"),
                classic);
        return build(BLOOM_AGG, spec, arguments.get(0), null);
    }

    private static Expression hll(List<Expression> arguments) {
        Arguments.requireCount(HLL_AGG, arguments, 2, 2, "(keys, precision)");
        int precision = Arguments.wholeInt(HLL_AGG, arguments.get(1), "precision");
        return build(HLL_AGG, new SketchSpec.Hll(precision), arguments.get(0), null);
    }

    private static Expression countMin(List<Expression> arguments) {
        Arguments.requireCount(CMS_AGG, arguments, 3, 4, "(keys[, weight], epsilon, delta)");
        int at = arguments.size() - 2;
        SketchSpec spec = new SketchSpec.CountMin(
                Arguments.number(CMS_AGG, arguments.get(at), "epsilon"),
                Arguments.number(CMS_AGG, arguments.get(at + 1), "delta"));
        return build(CMS_AGG, spec, arguments.get(0), arguments.size() == 4 ? arguments.get(1) : null);
    }

    private static Expression topK(List<Expression> arguments) {
        Arguments.requireCount(TOPK_AGG, arguments, 2, 4, "(keys, k[, epsilon, delta])");
        if (arguments.size() == 3) {
            throw new IllegalArgumentException(TOPK_AGG + " takes (keys, k[, epsilon, delta]); it was given 3"
                    + " arguments (epsilon and delta go together)");
        }
        int k = Arguments.wholeInt(TOPK_AGG, arguments.get(1), "k");
        boolean given = arguments.size() == 4;
        SketchSpec spec = new SketchSpec.TopKeys(
                k,
                given ? Arguments.number(TOPK_AGG, arguments.get(2), "epsilon") : SketchSpec.TopKeys.DEFAULT_EPSILON,
                given ? Arguments.number(TOPK_AGG, arguments.get(3), "delta") : SketchSpec.TopKeys.DEFAULT_DELTA);
        return build(TOPK_AGG, spec, arguments.get(0), null);
    }

    private static Expression merge(List<Expression> arguments) {
        Arguments.requireCount(MERGE_AGG, arguments, 1, 1, "(sketches)");
        if (!(arguments.get(0).dataType() instanceof BinaryType)) {
            throw new IllegalArgumentException(MERGE_AGG + ": sketches column type = "
                    + arguments.get(0).dataType().simpleString() + ", must be binary (the bytes of sketch files)");
        }
        MergeAggregator aggregator = new MergeAggregator();
        return aggregate(
                new UserDefinedAggregator<>(
                        aggregator, org.apache.spark.sql.Encoders.BINARY(), Option.apply(MERGE_AGG), true, true),
                List.of(arguments.get(0)));
    }

    private static Expression build(String function, SketchSpec spec, Expression keys, Expression weight) {
        BuildAggregator aggregator = new BuildAggregator(spec, weight != null);
        Keys kind = Keys.of(keys.dataType(), function);
        return aggregate(
                new UserDefinedAggregator<>(
                        aggregator, aggregator.inputEncoder(kind), Option.apply(function), true, true),
                weight == null ? List.of(keys) : List.of(keys, weight));
    }

    private static <I, B, O> Expression aggregate(UserDefinedAggregator<I, B, O> udaf, List<Expression> children) {
        return ScalaAggregator$.MODULE$.apply(udaf, seq(children));
    }

    private static Seq<Expression> seq(List<Expression> list) {
        return CollectionConverters.asScala(list).toList();
    }

    /** A function builder of Spark's registry from one over a Java list of the call's arguments. */
    private static Function1<Seq<Expression>, Expression> builder(
            java.util.function.Function<List<Expression>, Expression> build) {
        return arguments -> build.apply(CollectionConverters.asJava(arguments));
    }
}
