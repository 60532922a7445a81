package io.mapsketch.cli;

import io.mapsketch.interop.GuavaBloomFilter;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.TypeConversionException;

/** {@code mapsketch import FORMAT SRC DEST}: a foreign sketch's bytes into a new sketch file. */
@Command(
        name = "import",
        description = {
            "Creates the sketch file DEST from SRC, a file holding exactly another system's sketch bytes;"
                    + " DEST keeps hashing keys as that system does, so later adds, counts and merges answer as it would.",
            "Bad bytes are refused with one line naming SRC, the byte offset and the fault; nothing is written."
        },
        footer = {
            "%nFormats:%n  redis-hll    a Redis HyperLogLog string (GET of a PFADD key; dense or sparse)",
            "  guava-bloom  a Guava BloomFilter's writeTo bytes; --funnel utf8 (strings) or long (Funnels.longFunnel)",
            "  spark-bloom  a Spark BloomFilter's writeTo bytes, version 1 or 2 (df.stat.bloomFilter)",
            "  spark-cms    a Spark CountMinSketch's writeTo bytes (df.stat.countMinSketch)",
            "  datasketches-hll  a DataSketches HllSketch image (any mode, type, updatable or compact)",
            "%nExample:%n  redis-cli --raw GET visitors | head -c -1 > visitors.redis   (--raw adds a newline)",
            "  mapsketch import redis-hll visitors.redis visitors.hll"
        })
final class ImportVerb implements Callable<Integer> {

    @Parameters(
            index = "0",
            paramLabel = "FORMAT",
            converter = ForeignFormat.Converter.class,
            completionCandidates = ForeignFormat.Names.class,
            description = "The foreign format: ${COMPLETION-CANDIDATES}.")
    private ForeignFormat format;

    @Parameters(index = "1", paramLabel = "SRC", description = "A file of the foreign bytes.")
    private Path source;

    @Parameters(index = "2", paramLabel = "DEST", description = "The sketch file to create.")
    private Path destination;

    @Option(
            names = "--funnel",
            paramLabel = "utf8|long",
            converter = FunnelConverter.class,
            description = "guava-bloom only: the funnel the filter's keys went through, which Guava's bytes do not"
                    + " record: utf8 (Funnels.stringFunnel(UTF_8)) or long (Funnels.longFunnel(); bf add and bf"
                    + " exists then read each item as a decimal long).")
    private GuavaBloomFilter.Funnel funnel;

    @Mixin
    private NewFileOptions options;

    @Override
    public Integer call() throws IOException {
        format.importFile(source, destination, funnel, options.options());
        return 0;
    }

    /** Reads {@code --funnel}: {@code utf8} or {@code long}. */
    static final class FunnelConverter implements ITypeConverter<GuavaBloomFilter.Funnel> {

        @Override
        public GuavaBloomFilter.Funnel convert(String value) {
            return switch (value) {
                case "utf8" -> GuavaBloomFilter.Funnel.UTF8;
                case "long" -> GuavaBloomFilter.Funnel.LONG;
                default -> throw new TypeConversionException("'" + value + "' is not a funnel: utf8 or long");
            };
        }
    }
}
