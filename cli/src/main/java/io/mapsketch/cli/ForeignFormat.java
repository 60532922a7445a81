package io.mapsketch.cli;

import io.mapsketch.CreateOption;
import io.mapsketch.OpenMode;
import io.mapsketch.cardinality.HyperLogLog;
import io.mapsketch.frequency.CountMinSketch;
import io.mapsketch.interop.DataSketchesHll;
import io.mapsketch.interop.GuavaBloomFilter;
import io.mapsketch.interop.RedisHyperLogLog;
import io.mapsketch.interop.SparkBloomFilter;
import io.mapsketch.interop.SparkCountMinSketch;
import io.mapsketch.membership.BloomFilter;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Iterator;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * The foreign formats of {@code mapsketch import} and {@code export}, each with its name on the command
 * line and the engine's codec that reads and writes it; what each keeps and loses is in
 * {@code docs/interop.md}.
 */
enum ForeignFormat {
    /** A Redis HyperLogLog string, as {@code GET} returns it: dense or sparse in, dense out. */
    REDIS_HLL(RedisHyperLogLog.FORMAT) {
        @Override
        void importFile(Path source, Path destination, GuavaBloomFilter.Funnel funnel, CreateOption... options)
                throws IOException {
            requireNoFunnel(funnel);
            RedisHyperLogLog.importFrom(source, destination, OpenMode.EXCLUSIVE, options)
                    .close();
        }

        @Override
        void exportFile(Path source, Path destination) throws IOException {
            exportHyperLogLog(source, sketch -> RedisHyperLogLog.exportTo(sketch, destination));
        }
    },
    /** The bytes of a Guava {@code BloomFilter}'s {@code writeTo}, with the funnel its keys went through. */
    GUAVA_BLOOM(GuavaBloomFilter.FORMAT) {
        @Override
        void importFile(Path source, Path destination, GuavaBloomFilter.Funnel funnel, CreateOption... options)
                throws IOException {
            if (funnel == null) {
                throw new IllegalArgumentException("guava-bloom needs --funnel utf8 or --funnel long: Guava's bytes"
                        + " do not record the funnel its keys went through");
            }
            GuavaBloomFilter.importFrom(source, funnel, destination, OpenMode.EXCLUSIVE, options)
                    .close();
        }

        @Override
        void exportFile(Path source, Path destination) throws IOException {
            try (BloomFilter filter = BloomFilter.open(source, OpenMode.READ_ONLY)) {
                GuavaBloomFilter.exportTo(filter, destination);
            } catch (IllegalArgumentException refused) {
                throw new CommandFailure(refused.getMessage());
            }
        }
    },
    /** The bytes of a Spark {@code BloomFilter}'s {@code writeTo}, version 1 or 2. */
    SPARK_BLOOM(SparkBloomFilter.FORMAT) {
        @Override
        void importFile(Path source, Path destination, GuavaBloomFilter.Funnel funnel, CreateOption... options)
                throws IOException {
            requireNoFunnel(funnel);
            SparkBloomFilter.importFrom(source, destination, OpenMode.EXCLUSIVE, options)
                    .close();
        }

        @Override
        void exportFile(Path source, Path destination) throws IOException {
            try (BloomFilter filter = BloomFilter.open(source, OpenMode.READ_ONLY)) {
                SparkBloomFilter.exportTo(filter, destination);
            } catch (IllegalArgumentException refused) {
                throw new CommandFailure(refused.getMessage());
            }
        }
    },
    /** The bytes of a Spark {@code CountMinSketch}'s {@code writeTo}. */
    SPARK_CMS(SparkCountMinSketch.FORMAT) {
        @Override
        void importFile(Path source, Path destination, GuavaBloomFilter.Funnel funnel, CreateOption... options)
                throws IOException {
            requireNoFunnel(funnel);
            SparkCountMinSketch.importFrom(source, destination, OpenMode.EXCLUSIVE, options)
                    .close();
        }

        @Override
        void exportFile(Path source, Path destination) throws IOException {
            try (CountMinSketch sketch = CountMinSketch.open(source, OpenMode.READ_ONLY)) {
                SparkCountMinSketch.exportTo(sketch, destination);
            } catch (IllegalArgumentException refused) {
                throw new CommandFailure(refused.getMessage());
            }
        }
    },
    /**
     * A DataSketches HLL image ({@code HllSketch} of datasketches-java, C++ or Python; Spark's
     * {@code hll_sketch_agg}): every mode, type and form in, an HLL_8 updatable image out.
     */
    DATASKETCHES_HLL(DataSketchesHll.FORMAT) {
        @Override
        void importFile(Path source, Path destination, GuavaBloomFilter.Funnel funnel, CreateOption... options)
                throws IOException {
            requireNoFunnel(funnel);
            DataSketchesHll.importFrom(source, destination, OpenMode.EXCLUSIVE, options)
                    .close();
        }

        @Override
        void exportFile(Path source, Path destination) throws IOException {
            exportHyperLogLog(source, sketch -> DataSketchesHll.exportTo(sketch, destination));
        }
    };

    private final String name;

    ForeignFormat(String name) {
        this.name = name;
    }

    /**
     * Creates the sketch file {@code destination} from the foreign bytes of {@code source}; {@code funnel}
     * is Guava's, {@code null} when not given.
     */
    abstract void importFile(Path source, Path destination, GuavaBloomFilter.Funnel funnel, CreateOption... options)
            throws IOException;

    /** Refuses {@code --funnel} for a format other than Guava's. */
    void requireNoFunnel(GuavaBloomFilter.Funnel funnel) {
        if (funnel != null) {
            throw new IllegalArgumentException("--funnel is for guava-bloom only, not " + name);
        }
    }

    /** Writes the foreign bytes of the sketch file {@code source} to {@code destination}. */
    abstract void exportFile(Path source, Path destination) throws IOException;

    @Override
    public String toString() {
        return name;
    }

    /** Writes a HyperLogLog's foreign bytes. */
    @FunctionalInterface
    private interface HyperLogLogExport {
        void write(HyperLogLog sketch) throws IOException;
    }

    /** Opens the HyperLogLog file {@code source} read-only and exports it; a sketch of another scheme fails the command. */
    private static void exportHyperLogLog(Path source, HyperLogLogExport export) throws IOException {
        try (HyperLogLog sketch = HyperLogLog.open(source, OpenMode.READ_ONLY)) {
            export.write(sketch);
        } catch (IllegalArgumentException refused) {
            throw new CommandFailure(refused.getMessage());
        }
    }

    /** Reads a format by its name on the command line. */
    static final class Converter implements ITypeConverter<ForeignFormat> {

        @Override
        public ForeignFormat convert(String value) {
            for (ForeignFormat format : values()) {
                if (format.name.equals(value)) {
                    return format;
                }
            }
            throw new TypeConversionException(
                    "'" + value + "' is not a format this build reads; formats: " + String.join(", ", new Names()));
        }
    }

    /** The names, for the help's list of formats. */
    static final class Names implements Iterable<String> {

        @Override
        public Iterator<String> iterator() {
            return Arrays.stream(values()).map(f -> f.name).iterator();
        }
    }
}
