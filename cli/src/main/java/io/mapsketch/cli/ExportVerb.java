package io.mapsketch.cli;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code mapsketch export FORMAT SRC DEST}: a sketch file out as another system's sketch bytes. */
@Command(
        name = "export",
        description = {
            "Writes to DEST exactly the bytes another system stores for the sketch file SRC, which must hash keys"
                    + " as that system does (imported from it, or created to hash as it does). SRC stays unchanged.",
            "A sketch that hashes otherwise is refused with one line naming SRC."
        },
        footer = {
            "%nFormats:%n  redis-hll    a dense Redis HyperLogLog string (SET it under a key; PFCOUNT recomputes the count)",
            "  guava-bloom  the bytes Guava's BloomFilter.writeTo writes (BloomFilter.readFrom reads them)",
            "  spark-bloom  the bytes Spark's BloomFilter.writeTo writes, of the version imported",
            "  spark-cms    the bytes Spark's CountMinSketch.writeTo writes",
            "  datasketches-hll  an HLL_8 updatable image (HllSketch.heapify reads it)",
            "%nExample:%n  mapsketch export redis-hll visitors.hll visitors.redis",
            "  redis-cli -x SET visitors < visitors.redis"
        })
final class ExportVerb implements Callable<Integer> {

    @Parameters(
            index = "0",
            paramLabel = "FORMAT",
            converter = ForeignFormat.Converter.class,
            completionCandidates = ForeignFormat.Names.class,
            description = "The foreign format: ${COMPLETION-CANDIDATES}.")
    private ForeignFormat format;

    @Parameters(index = "1", paramLabel = "SRC", description = "The sketch file.")
    private Path source;

    @Parameters(index = "2", paramLabel = "DEST", description = "The file of foreign bytes to write.")
    private Path destination;

    @Option(names = "--force", description = "Replace DEST if it exists (without it, an existing DEST is refused).")
    private boolean force;

    @Override
    public Integer call() throws IOException {
        if (!force && Files.exists(destination)) {
            throw new FileAlreadyExistsException(destination.toString());
        }
        format.exportFile(source, destination);
        return 0;
    }
}
