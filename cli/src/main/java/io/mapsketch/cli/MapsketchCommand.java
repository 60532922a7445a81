package io.mapsketch.cli;

import java.io.IOException;
import java.lang.module.ModuleDescriptor;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

/**
 * The {@code mapsketch} command: one subcommand per sketch family ({@link SketchFamily}) and the
 * verbs that take any kind of file: {@code info}, {@code merge}, {@code verify}, {@code import} and
 * {@code export} of foreign sketches, {@code pipe} (Redis command lines) and the {@code demo}.
 */
@Command(
        name = "mapsketch",
        description = "Sketch files: create, add to, query, inspect and merge them; several processes may add at once.",
        versionProvider = MapsketchCommand.Version.class,
        footer = {
            "%nItems are UTF-8 strings; a verb given no ITEM reads one item per line from standard input.",
            "Exit status: 0 done, 1 a missing, bad or incompatible file, an I/O error or a refused operation",
            "(one line on standard error names the file and the fault), 2 a usage error.",
            "'verify' exits with 3 when a file cannot be shown intact (stale or no checksum).",
            "%nExample:%n  mapsketch bf create visitors.bf --capacity 1000000 --error-rate 0.01",
            "  mapsketch bf add visitors.bf alice@example.com",
            "  mapsketch bf exists visitors.bf alice@example.com bob@example.com"
        })
final class MapsketchCommand {

    /**
     * The families, in the order the help lists them. Only the family a command line names is built
     * ({@link #commandLine}): picocli reads every verb's annotations by reflection, which is most of the
     * command's start-up.
     */
    private static final List<Class<? extends SketchFamily>> FAMILIES = List.of(
            BloomCommands.class,
            CuckooCommands.class,
            CountMinCommands.class,
            TopKCommands.class,
            HyperLogLogCommands.class,
            MinHashCommands.class,
            SimHashCommands.class,
            TableCommands.class);

    private final CommandIo io;

    @Spec
    private CommandSpec spec;

    @Option(
            names = {"-h", "--help"},
            usageHelp = true,
            scope = ScopeType.INHERIT,
            description = "Show this help.")
    private boolean help;

    @Option(
            names = {"-V", "--version"},
            versionHelp = true,
            description = "Print the version.")
    private boolean version;

    MapsketchCommand(CommandIo io) {
        this.io = io;
    }

    /**
     * Builds the command for one command line: the family its first argument names, alone, or every
     * family and the {@code import} and {@code export} verbs when it names none (the help, {@code info},
     * {@code merge}, {@code verify}, {@code demo}, {@code import}, {@code export}, or a usage error), so
     * that the help and the verbs over any kind of file see them all.
     *
     * @param io the streams of the run
     * @param args the command line
     * @return the command
     */
    static CommandLine commandLine(CommandIo io, String... args) {
        CommandLine command = new CommandLine(new MapsketchCommand(io));
        List<Class<? extends SketchFamily>> named = FAMILIES.stream()
                .filter(family -> args.length > 0
                        && family.getAnnotation(Command.class).name().equals(args[0]))
                .toList();
        for (Class<? extends SketchFamily> family : named.isEmpty() ? FAMILIES : named) {
            command.addSubcommand(family);
        }
        if (named.isEmpty()) {
            command.addSubcommand(ImportVerb.class);
            command.addSubcommand(ExportVerb.class);
        }
        return command;
    }

    /**
     * Runs one command line through picocli on the streams of the run, with the command's handlers of
     * usage errors and faults.
     *
     * @return the exit status
     */
    static int execute(CommandIo io, String... args) {
        return commandLine(io, args)
                .setOut(io.out())
                .setErr(io.err())
                .setCaseInsensitiveEnumValuesAllowed(true)
                .setParameterExceptionHandler(new UsageErrorHandler())
                .setExecutionExceptionHandler(new FaultHandler())
                .execute(args);
    }

    /** The streams of this run of the command. */
    CommandIo io() {
        return io;
    }

    /** Every family listed among the subcommands. */
    private List<SketchFamily> families() {
        return spec.subcommands().values().stream()
                .map(CommandLine::getCommand)
                .filter(SketchFamily.class::isInstance)
                .map(SketchFamily.class::cast)
                .toList();
    }

    @Command(
            name = "info",
            description = "Prints what a sketch file holds: kind, format version, hash scheme"
                    + " and seed, counters, clean close, and the sketch's size and error. Read-only.",
            footer = {"%nExample:%n  mapsketch info visitors.bf --json"})
    int info(
            @Parameters(paramLabel = "FILE", description = "A sketch file (or a scalable filter's directory).")
                    Path file,
            @Option(names = "--json", description = "One JSON object instead of aligned lines.") boolean json)
            throws IOException {
        Info.print(file, json, io.out());
        return 0;
    }

    @Command(
            name = "merge",
            description = {
                "Merges the SRC files into DEST (PFMERGE, BF and CMS merges): any mergeable kind"
                        + " (Bloom filters, Count-Min, Top-K, HyperLogLog, MinHash). The sources stay unchanged.",
                "A missing DEST is created empty in the first source's shape and seed. DEST may be among the"
                        + " sources where merging is idempotent (Bloom filters but counting ones, HyperLogLog,"
                        + " MinHash); for sums (Count-Min, Top-K, counting Bloom) it is refused.",
                "All files must be of one kind, seed and shape: another kind or seed is refused before DEST changes;",
                "a source of another shape stops the merge, and the sources listed before it stay merged;",
                "a HyperLogLog of higher precision is folded into DEST's."
            },
            footer = {"%nExample:%n  mapsketch merge all.bf shard-1.bf shard-2.bf"})
    int merge(
            @Parameters(index = "0", paramLabel = "DEST", description = "The sketch to merge into, created if missing.")
                    Path destination,
            @Parameters(index = "1..*", arity = "1..*", paramLabel = "SRC", description = "Sketches of DEST's kind.")
                    List<Path> sources)
            throws IOException {
        Merging.merge(destination, sources, families());
        return 0;
    }

    @Command(
            name = "verify",
            description = {
                "Compares each file's payload with the checksum in its header (format"
                        + " version 4 on), read-only: one line per file, 'ok', 'corrupt: payload bytes [a, b) do not match their"
                        + " checksum', 'stale: REASON' (writers are attached, or the file was not closed cleanly since the"
                        + " checksum was recorded) or 'no checksum: format version N'. A scalable filter's directory is verified"
                        + " link by link.",
                "Exit status: 0 if every file is ok, 1 if one is corrupt or cannot be read, 3 otherwise (a file is stale"
                        + " or has no checksum: nothing is proved either way; the next writer's clean close records it anew)."
            },
            footer = {"%nExample:%n  mapsketch verify visitors.bf events.cms"})
    int verify(
            @Parameters(
                            arity = "1..*",
                            paramLabel = "FILE",
                            description = "Sketch files or scalable filter" + " directories.")
                    List<Path> files) {
        return Verify.run(files, io);
    }

    @Command(
            name = "pipe",
            description = {
                "Runs Redis command lines from standard input, one reply line each on standard output, keeping"
                        + " the files open across lines (up to " + PipeFiles.MAX_OPEN + "): BF.ADD, BF.MADD,"
                        + " BF.EXISTS, BF.MEXISTS, BF.CARD, BF.RESERVE, BF.INSERT, CF.RESERVE, CF.ADD, CF.ADDNX,"
                        + " CF.EXISTS, CF.MEXISTS, CF.DEL, CF.COUNT, CMS.INITBYPROB, CMS.INITBYDIM, CMS.INCRBY,"
                        + " CMS.QUERY, CMS.MERGE, TOPK.RESERVE, TOPK.ADD, TOPK.INCRBY, TOPK.QUERY, TOPK.COUNT,"
                        + " TOPK.LIST, PFADD, PFCOUNT, PFMERGE; a key is a file.",
                "Arguments are split as redis-cli splits them (double quotes with backslash escapes, single"
                        + " quotes). A reply is its values separated by spaces, each in double quotes if it is empty"
                        + " or holds a space, a quote or a backslash; 'OK' for a create or a merge; 'ERR MESSAGE' for"
                        + " a command that failed, and the pipe goes on.",
                "Exit status 0 if every command succeeded, 1 if one replied ERR."
            },
            footer = {
                "%nExample:%n  printf 'BF.ADD visitors.bf alice\\nBF.MEXISTS visitors.bf alice bob\\n'"
                        + " | mapsketch pipe",
                "  1",
                "  1 0"
            })
    int pipe() {
        return Pipe.run(io);
    }

    @Command(
            name = "demo",
            description = "Builds every kind of sketch as real files in a temporary directory, prints what"
                    + " was measured next to what the formulas say, and removes the directory.",
            footer = {"%nExample:%n  mapsketch demo --keep"})
    int demo(
            @Option(names = "--keep", description = "Keep the directory and its files, and print where it is.")
                    boolean keep)
            throws IOException {
        return new Demo(io.out()).run(keep);
    }

    /** The version of the command's module, as its descriptor records it. */
    static final class Version implements CommandLine.IVersionProvider {

        @Override
        public String[] getVersion() {
            ModuleDescriptor descriptor = MapsketchCommand.class.getModule().getDescriptor();
            String version = descriptor == null ? null : descriptor.rawVersion().orElse(null);
            return new String[] {"mapsketch " + (version == null ? "(version unknown: not run as a module)" : version)};
        }
    }
}
