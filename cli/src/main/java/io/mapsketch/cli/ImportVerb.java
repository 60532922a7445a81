package io.mapsketch.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code mapsketch import FORMAT SRC DEST}: a foreign sketch's bytes into a new sketch file. */
@Command(
        name = "import",
        description = {
            "Creates the sketch file DEST from SRC, a file holding exactly another system's sketch bytes;"
                    + " DEST keeps hashing keys as that system does, so later adds, counts and merges answer as it would.",
            "Bad bytes are refused with one line naming SRC, the byte offset and the fault; nothing is written."
        },
        footer = {
            "%nFormats:%n  redis-hll  a Redis HyperLogLog string (GET of a PFADD key; dense or sparse)",
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

    @Mixin
    private NewFileOptions options;

    @Override
    public Integer call() throws IOException {
        format.importFile(source, destination, options.options());
        return 0;
    }
}
