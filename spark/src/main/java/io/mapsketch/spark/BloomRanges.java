package io.mapsketch.spark;

import io.mapsketch.CreateOption;
import io.mapsketch.membership.BlockedBloomFilter;
import io.mapsketch.membership.BlockedBloomRanges;
import java.io.IOException;
import java.io.Serial;
import java.io.Serializable;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.spark.Partitioner;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.storage.StorageLevel;
import scala.Tuple2;

/**
 * Builds a blocked Bloom filter too large for one task by block range ({@link BlockedBloomRanges}): each row's
 * key is hashed as {@code mapsketch_bloom_agg} hashes it and sent, as its hash, to the partition of its range;
 * each task builds one range on its heap; the driver writes the ranges, in order, into one file.
 *
 * <p>Why the driver writes: the ranges are persisted where the tasks built them (on the executors' disks) and
 * the driver brings them over one at a time ({@code toLocalIterator}), so the file is written by the engine's
 * crash-safe creation on one machine, with no file system shared by the executors and no part of the file
 * written by a task that may be retried or speculated. The driver receives one range at a time; the cost is the
 * filter's bytes crossing the network once and written once by the driver.
 *
 * <p>Memory: a task holds its range, {@code filter bytes / ranges}; bringing it to the driver holds its copies in
 * Spark's result serialization and the driver's, about six ranges of heap measured with the driver in the task's
 * JVM ({@code BloomRangeMemory}); the shuffle moves a key's range and hash, not the key.
 */
final class BloomRanges {

    private BloomRanges() {}

    /** See {@link MapsketchFiles#writeBloomByRanges}. */
    static void write(
            Dataset<Row> rows,
            String keyColumn,
            long expectedItems,
            double falsePositiveRate,
            int ranges,
            Path file,
            CreateOption... options)
            throws IOException {
        BlockedBloomRanges split = split(expectedItems, falsePositiveRate, ranges);
        Dataset<Row> keys = rows.select(rows.col("`" + keyColumn + "`"));
        Keys.of(keys.schema().fields()[0].dataType(), "writeBloomByRanges");
        JavaPairRDD<Integer, Long> hashes = keys.toJavaRDD()
                .mapPartitionsToPair(partition -> hashed(partition, expectedItems, falsePositiveRate, ranges))
                .partitionBy(new ByRange(ranges));
        JavaRDD<BuiltRange> built = hashes.mapPartitionsWithIndex(
                (range, partition) -> List.of(build(partition, range, expectedItems, falsePositiveRate, ranges))
                        .iterator(),
                true);
        built.persist(StorageLevel.DISK_ONLY());
        try {
            built.count();
            Iterator<BuiltRange> received = built.toLocalIterator();
            split.write(
                    file,
                    Instant.EPOCH,
                    new Iterator<>() {
                        @Override
                        public boolean hasNext() {
                            return received.hasNext();
                        }

                        @Override
                        public BlockedBloomRanges.Part next() {
                            BuiltRange range = received.next();
                            return split.part(range.range(), range.items(), range.bits());
                        }
                    },
                    options);
        } finally {
            built.unpersist(false);
        }
    }

    /** The split every task and the driver make alike from the same parameters. */
    private static BlockedBloomRanges split(long expectedItems, double falsePositiveRate, int ranges) {
        return BlockedBloomRanges.of(
                BlockedBloomFilter.builder().expectedItems(expectedItems).falsePositiveRate(falsePositiveRate), ranges);
    }

    /** Each non-null key of a partition as its range and hash, one row at a time. */
    private static Iterator<Tuple2<Integer, Long>> hashed(
            Iterator<Row> partition, long expectedItems, double falsePositiveRate, int ranges) {
        BlockedBloomRanges split = split(expectedItems, falsePositiveRate, ranges);
        return new Iterator<>() {
            private Row row = advance();

            private Row advance() {
                while (partition.hasNext()) {
                    Row next = partition.next();
                    if (!next.isNullAt(0)) {
                        return next;
                    }
                }
                return null;
            }

            @Override
            public boolean hasNext() {
                return row != null;
            }

            @Override
            public Tuple2<Integer, Long> next() {
                if (row == null) {
                    throw new NoSuchElementException();
                }
                long hash = Keys.hash(split, row.get(0));
                row = advance();
                return new Tuple2<>(split.rangeOf(hash), hash);
            }
        };
    }

    /** The range of a partition, built from its keys' hashes. */
    private static BuiltRange build(
            Iterator<Tuple2<Integer, Long>> partition,
            int range,
            long expectedItems,
            double falsePositiveRate,
            int ranges) {
        BlockedBloomRanges.Part part =
                split(expectedItems, falsePositiveRate, ranges).newRange(range);
        while (partition.hasNext()) {
            part.add(partition.next()._2());
        }
        return new BuiltRange(range, part.itemsAdded(), part.bits());
    }

    /**
     * A range as a task ships it.
     *
     * @param range its index
     * @param items the keys it counted
     * @param bits its blocks
     */
    record BuiltRange(int range, long items, byte[] bits) implements Serializable {}

    /** Sends each key to the partition of its range: partition r holds range r. */
    static final class ByRange extends Partitioner {

        @Serial
        private static final long serialVersionUID = 1L;

        private final int ranges;

        ByRange(int ranges) {
            this.ranges = ranges;
        }

        @Override
        public int numPartitions() {
            return ranges;
        }

        @Override
        public int getPartition(Object key) {
            return (Integer) key;
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof ByRange by && by.ranges == ranges;
        }

        @Override
        public int hashCode() {
            return ranges;
        }
    }
}
