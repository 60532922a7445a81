package io.mapsketch.spark;

import io.mapsketch.CreateOption;
import io.mapsketch.SketchImage;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * Writes a column of sketch files, one file per row (one per group of an aggregate), with the engine's
 * crash-safe creation ({@link SketchImage#create}): each file appears complete at its name, or not at all.
 * The rows are brought to the driver one partition at a time and the files written there, for a service
 * beside it to map.
 */
public final class MapsketchFiles {

    /** The extension of every file written. */
    public static final String EXTENSION = ".sketch";

    private MapsketchFiles() {}

    /**
     * Writes the sketch of each row to {@code directory}, named by the row's {@code nameColumns}:
     * {@code page=home,day=2026-01-03.sketch} for columns {@code page} and {@code day} (each value URL-encoded,
     * a null value named {@code null}). Rows whose sketch is null are skipped.
     *
     * @param rows the rows, such as the result of an aggregate grouped by {@code nameColumns}
     * @param sketchColumn the BINARY column of sketch files
     * @param directory where the files go; created if missing
     * @param options {@link CreateOption#OVERWRITE_EXISTING} to replace existing files, and the like
     * @param nameColumns the columns that name each file; at least one
     * @return the files written, in the order of the rows
     * @throws IllegalArgumentException if no name column is given
     * @throws java.nio.file.FileAlreadyExistsException if a file exists and overwriting was not asked for (so also
     *     when two rows have the same name)
     * @throws io.mapsketch.SketchFileException if a row's bytes are not a valid sketch file
     * @throws IOException if a file cannot be written
     */
    public static List<Path> write(
            Dataset<Row> rows, String sketchColumn, Path directory, List<String> nameColumns, CreateOption... options)
            throws IOException {
        Objects.requireNonNull(sketchColumn, "sketchColumn");
        if (nameColumns.isEmpty()) {
            throw new IllegalArgumentException("nameColumns is empty, must name at least one column");
        }
        Files.createDirectories(directory);
        List<String> columns = new ArrayList<>(nameColumns);
        columns.addFirst(sketchColumn);
        Dataset<Row> selected =
                rows.selectExpr(columns.stream().map(c -> "`" + c + "`").toArray(String[]::new));
        List<Path> written = new ArrayList<>();
        Iterator<Row> iterator = selected.toLocalIterator();
        while (iterator.hasNext()) {
            Row row = iterator.next();
            if (row.isNullAt(0)) {
                continue;
            }
            Path file = directory.resolve(name(row, nameColumns));
            SketchImage.create((byte[]) row.get(0), file, options);
            written.add(file);
        }
        return written;
    }

    /**
     * Writes one blocked Bloom filter of a key column's non-null values to {@code file}, built by block range so
     * that no task holds the whole filter: the file is byte for byte what {@code mapsketch_bloom_agg(keyColumn,
     * expectedItems, fpr)} gives over the same rows, written as {@link #write} writes it, and
     * {@link io.mapsketch.membership.BlockedBloomFilter#open} maps it. Each of {@code ranges} tasks builds one
     * range, {@code filter bytes / ranges} (a 10^10-key 1% filter is about 12.6 GB: 64 ranges of about 200 MB), and
     * bringing a range to the driver holds about six ranges of heap, task and driver together (measured in
     * {@code docs/spark.md}); the driver brings the ranges over one at a time and writes the file with the
     * engine's crash-safe creation, so it appears complete or not at all ({@code BloomRanges} says why the
     * driver writes). Cost: one shuffle of a (range, hash) pair per key, and the filter's bytes once to the driver's disk.
     *
     * @param rows the rows
     * @param keyColumn the key column: string, bigint, int or binary, hashed as the aggregates hash it
     * @param expectedItems n, at least 1
     * @param fpr the false-positive rate at n, in (0, 1)
     * @param ranges R, at least {@code ceil(filter bytes / BlockedBloomRanges.MAX_RANGE_BYTES)} and at most the
     *     filter's blocks
     * @param file where the filter file goes
     * @param options {@link CreateOption#OVERWRITE_EXISTING} to replace an existing file, and the like
     * @throws IllegalArgumentException if a parameter is out of range (naming it, its value and the valid range)
     *     or the column's type is not a key type
     * @throws java.nio.file.FileAlreadyExistsException if the file exists and overwriting was not asked for
     * @throws IOException if the file cannot be written
     */
    public static void writeBloomByRanges(
            Dataset<Row> rows,
            String keyColumn,
            long expectedItems,
            double fpr,
            int ranges,
            Path file,
            CreateOption... options)
            throws IOException {
        Objects.requireNonNull(keyColumn, "keyColumn");
        BloomRanges.write(rows, keyColumn, expectedItems, fpr, ranges, Objects.requireNonNull(file, "file"), options);
    }

    private static String name(Row row, List<String> nameColumns) {
        StringBuilder name = new StringBuilder();
        for (int i = 0; i < nameColumns.size(); i++) {
            Object value = row.get(i + 1);
            name.append(i == 0 ? "" : ",")
                    .append(encode(nameColumns.get(i)))
                    .append('=')
                    .append(value == null ? "null" : encode(value.toString()));
        }
        return name.append(EXTENSION).toString();
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }
}
