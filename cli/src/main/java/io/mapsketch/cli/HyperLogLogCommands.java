package io.mapsketch.cli;

import io.mapsketch.OpenMode;
import io.mapsketch.Sketch;
import io.mapsketch.SketchKind;
import io.mapsketch.cardinality.HyperLogLog;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code mapsketch hll}: HyperLogLog, "how many distinct X?" with a relative standard error of 1.04 / sqrt(2^P). */
@Command(
        name = "hll",
        description = "HyperLogLog: how many distinct X? (relative standard error 1.04 / sqrt(2^P)," + " both ways)",
        subcommands = FamilyInfo.class)
final class HyperLogLogCommands implements SketchFamily {

    @ParentCommand
    private MapsketchCommand root;

    @Command(
            name = "create",
            description = "Creates an empty HyperLogLog of 2^P one-byte registers.",
            footer = {"%nExample (16 KiB, 0.81%% standard error):%n  mapsketch hll create visitors.hll --precision 14"})
    int create(
            @Parameters(paramLabel = "FILE", description = "The file to create.") Path file,
            @Option(
                            names = "--precision",
                            paramLabel = "P",
                            required = true,
                            description = "Precision, " + HyperLogLog.MIN_PRECISION + " to " + HyperLogLog.MAX_PRECISION
                                    + ": 2^P bytes, error 1.04 / sqrt(2^P) (10: 3.25%%, 14: 0.81%%).")
                    int precision,
            @Mixin CreateOptions options)
            throws IOException {
        options.create(file, HyperLogLog.builder().precision(precision));
        return 0;
    }

    @Command(
            name = "add",
            description = {
                "Adds items and prints 1 if a register changed (the estimate may have grown), else 0 (PFADD)."
                        + " Any number of processes may add to one file at once, except to a file that hashes as"
                        + " DataSketches does: that one is opened as its only writer, so that its HIP estimate goes"
                        + " on as DataSketches' would (a second adder is refused while one works).",
                "With no ITEM, adds each line of standard input."
            },
            footer = {
                "%nExamples:%n  mapsketch hll add visitors.hll alice@example.com bob@example.com",
                "  cut -f1 access.log | mapsketch hll add visitors.hll"
            })
    int add(@Mixin FileAndItems input) throws IOException {
        add(input, root.io());
        return 0;
    }

    /** PFADD: opens the sketch as a writer ({@link #addMode}) and adds the items. */
    static void add(FileAndItems input, CommandIo io) throws IOException {
        try (HyperLogLog sketch = HyperLogLog.open(input.file(), addMode(input.file()))) {
            add(sketch, input, io);
        }
    }

    /** PFADD on an open sketch: adds the items and prints 1 if a register changed, else 0, once. */
    static void add(HyperLogLog sketch, FileAndItems input, CommandIo io) {
        boolean[] changed = {false};
        input.each(io, (bytes, offset, length) -> changed[0] |= sketch.add(bytes, offset, length));
        io.out().println(changed[0] ? 1 : 0);
    }

    /**
     * {@code SHARED}, or {@code EXCLUSIVE} for a file that hashes as DataSketches does (one that keeps a HIP
     * accumulator), whose {@code SHARED} writers would turn it to the composite estimate.
     */
    private static OpenMode addMode(Path file) throws IOException {
        try (HyperLogLog peek = HyperLogLog.open(file, OpenMode.READ_ONLY)) {
            return Double.isNaN(peek.hipAccumulator()) ? OpenMode.SHARED : OpenMode.EXCLUSIVE;
        }
    }

    @Command(
            name = "count",
            description = {
                "Prints the estimated number of distinct items in the union of the"
                        + " files, which stay unchanged (PFCOUNT).",
                "Files of higher precision are folded to the lowest" + " precision among them."
            },
            footer = {"%nExample:%n  mapsketch hll count monday.hll tuesday.hll"})
    int count(
            @Parameters(paramLabel = "FILE", arity = "1..*", description = "HyperLogLog files of one seed.")
                    List<Path> files)
            throws IOException {
        try (OpenSketches<HyperLogLog> sketches = OpenSketches.readOnly(files, HyperLogLog::open)) {
            count(files, sketches.list(), root.io());
        }
        return 0;
    }

    /** PFCOUNT over open sketches, one per file: prints the union's estimate; another seed is refused. */
    static void count(List<Path> files, List<HyperLogLog> all, CommandIo io) {
        for (int i = 1; i < all.size(); i++) {
            if (all.get(i).hashSeed() != all.getFirst().hashSeed()) {
                throw new CommandFailure(files.get(i) + ": hash seed "
                        + all.get(i).hashSeed() + " differs from "
                        + files.getFirst() + "'s " + all.getFirst().hashSeed() + "; sketches of different seeds"
                        + " cannot be counted together");
            }
        }
        io.out().println(Math.round(HyperLogLog.estimateUnion(all.toArray(HyperLogLog[]::new))));
    }

    @Command(
            name = "merge",
            description = {
                "Merges the SRC files into DEST (PFMERGE); the sources stay unchanged. A missing DEST is created"
                        + " empty in the first source's precision and seed; DEST may be among the sources.",
                "A source of higher precision than DEST is folded down to it; one of"
                        + " lower precision, or another seed, is refused."
            },
            footer = {"%nExample:%n  mapsketch hll merge week.hll week.hll monday.hll tuesday.hll"})
    int mergeVerb(
            @Parameters(index = "0", paramLabel = "DEST", description = "The HyperLogLog to merge into.")
                    Path destination,
            @Parameters(index = "1..*", arity = "1..*", paramLabel = "SRC", description = "HyperLogLog files.")
                    List<Path> sources)
            throws IOException {
        Merging.merge(
                destination,
                sources,
                HyperLogLog::open,
                HyperLogLogCommands::requireFoldingMergeable,
                (into, from, source) -> mergeFolding(into, from));
        return 0;
    }

    @Override
    public boolean reads(SketchKind kind) {
        return kind == SketchKind.HYPERLOGLOG;
    }

    @Override
    public Sketch open(Path file, OpenMode mode) throws IOException {
        return HyperLogLog.open(file, mode);
    }

    /** A source of a higher precision is folded down to the destination's, as {@code hll merge} does. */
    @Override
    public void mergeStep(Sketch into, Sketch from) {
        mergeFolding((HyperLogLog) into, (HyperLogLog) from);
    }

    /** A source of a higher precision is checked as folded, as {@code hll merge} merges it. */
    @Override
    public void mergeCheck(Sketch into, Sketch from) {
        requireFoldingMergeable((HyperLogLog) into, (HyperLogLog) from);
    }

    private static void requireFoldingMergeable(HyperLogLog into, HyperLogLog from) {
        if (from.precision() == into.precision()) {
            into.requireMergeable(from);
        } else {
            into.requireFoldable(from);
        }
    }

    private static void mergeFolding(HyperLogLog into, HyperLogLog from) {
        if (from.precision() == into.precision()) {
            into.merge(from);
        } else {
            into.mergeFolded(from);
        }
    }
}
