package io.mapsketch.cli;

import io.mapsketch.OpenMode;
import io.mapsketch.Sketch;
import io.mapsketch.SketchKind;
import io.mapsketch.membership.BlockedBloomFilter;
import io.mapsketch.membership.BloomFilter;
import io.mapsketch.membership.CountingBloomFilter;
import io.mapsketch.membership.FilterBuilder;
import io.mapsketch.membership.MembershipFilter;
import io.mapsketch.membership.ScalableBloomFilter;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code mapsketch bf}: Bloom filters, "is X in the set?" with false positives only. */
@Command(
        name = "bf",
        description = "Bloom filters: is X in the set? (false positives only, never a false negative)",
        subcommands = FamilyInfo.class)
final class BloomCommands implements SketchFamily {

    private static final Set<SketchKind> KINDS = EnumSet.of(
            SketchKind.BLOOM, SketchKind.BLOCKED_BLOOM, SketchKind.COUNTING_BLOOM, SketchKind.SCALABLE_BLOOM);

    /** The layouts {@code bf create} makes. */
    enum Layout {
        /** One 64-byte cache line per key: the fastest, about 1% more memory at 1%. */
        BLOCKED,
        /** The classic bit array with k probes anywhere in it. */
        CLASSIC,
        /** Classic sizing with 4-bit counters instead of bits: four times the memory, keys can be removed. */
        COUNTING;

        FilterBuilder<?, ?> builder() {
            return switch (this) {
                case BLOCKED -> BlockedBloomFilter.builder();
                case CLASSIC -> BloomFilter.builder();
                case COUNTING -> CountingBloomFilter.builder();
            };
        }
    }

    @ParentCommand
    private MapsketchCommand root;

    @Command(
            name = "create",
            description = {
                "Creates an empty Bloom filter sized for N items at false-positive rate P (BF.RESERVE).",
                "With --expansion S it is a scalable filter, a directory of blocked links, each S times the"
                        + " capacity of the one before, that keeps the compound rate within P however many items come."
            },
            footer = {
                "%nExamples:%n  mapsketch bf create visitors.bf --capacity 10000000 --error-rate 0.01",
                "  mapsketch bf create growing.bf --capacity 100000 --error-rate 0.01 --expansion 2"
            })
    int create(
            @Parameters(paramLabel = "FILE", description = "The file (a directory with --expansion) to create.")
                    Path file,
            @Option(
                            names = "--capacity",
                            paramLabel = "N",
                            required = true,
                            description = "Items the filter is sized for: at N items its false-positive rate is P"
                                    + " (with --expansion, the first link's).")
                    long capacity,
            @Option(
                            names = "--error-rate",
                            paramLabel = "P",
                            required = true,
                            description = "False-positive rate wanted at N items, in (0, 1), e.g. 0.01.")
                    double errorRate,
            @Mixin Shape shape,
            @Mixin CreateOptions options)
            throws IOException {
        options.create(file, shape.builder(capacity, errorRate));
        return 0;
    }

    /** The layout and growth of a new filter, shared by {@code create} and {@code insert}. */
    static final class Shape {

        @Option(
                names = "--layout",
                paramLabel = "LAYOUT",
                defaultValue = "blocked",
                description = "blocked (default: one cache line per key, fastest), classic, or counting"
                        + " (4-bit counters, four times the memory).")
        private Layout layout;

        @Option(
                names = "--expansion",
                paramLabel = "S",
                description = "Make a scalable filter (BF.RESERVE EXPANSION): each new link holds S times"
                        + " the items of the one before, S at least 1; blocked links only.")
        private Integer expansion;

        /** The builder of a filter of this shape for N items at rate P. */
        FilterBuilder<?, ?> builder(long capacity, double errorRate) {
            if (expansion == null) {
                return layout.builder().expectedItems(capacity).falsePositiveRate(errorRate);
            }
            if (expansion < 1) {
                throw new IllegalArgumentException("--expansion = " + expansion + ", must be at least 1");
            }
            if (layout != Layout.BLOCKED) {
                throw new IllegalArgumentException("--expansion makes a scalable filter, whose links are blocked;"
                        + " --layout " + layout.name().toLowerCase(Locale.ROOT) + " does not scale");
            }
            return ScalableBloomFilter.builder()
                    .growthFactor(expansion)
                    .expectedItems(capacity)
                    .falsePositiveRate(errorRate);
        }
    }

    @Command(
            name = "add",
            description = {
                "Adds items (BF.ADD, BF.MADD) and prints 1 per item if it was new (the add set a bit), 0 if"
                        + " not (it was added before, or is a false positive). Any number of processes may add to"
                        + " one file at once.",
                "With no ITEM, adds each line of standard input."
            },
            footer = {
                "%nExamples:%n  mapsketch bf add visitors.bf alice@example.com bob@example.com",
                "  cut -f1 access.log | mapsketch bf add visitors.bf > /dev/null"
            })
    int add(@Mixin FileAndItems input) throws IOException {
        FilterVerbs.add(input, root.io());
        return 0;
    }

    @Command(
            name = "insert",
            description = {
                "Adds items as 'bf add' does, creating FILE first if it does not exist (BF.INSERT), sized for"
                        + " N items at rate P, scalable with --expansion; with --no-create a missing FILE is refused.",
                "With no ITEM, adds each line of standard input."
            },
            footer = {"%nExample:%n  mapsketch bf insert seen.bf --capacity 1000000 --error-rate 0.001 a b c"})
    int insert(
            @Mixin FileAndItems input,
            @Option(
                            names = "--capacity",
                            paramLabel = "N",
                            defaultValue = "100",
                            description = "Items a new filter is sized for (default: ${DEFAULT-VALUE}, as RedisBloom).")
                    long capacity,
            @Option(
                            names = "--error-rate",
                            paramLabel = "P",
                            defaultValue = "0.01",
                            description = "False-positive rate of a new filter at N items (default: ${DEFAULT-VALUE}).")
                    double errorRate,
            @Option(names = "--no-create", description = "Refuse a missing FILE instead of creating it (NOCREATE).")
                    boolean noCreate,
            @Mixin Shape shape,
            @Mixin CreateOptions options)
            throws IOException {
        FilterBuilder<?, ?> builder = shape.builder(capacity, errorRate);
        if (!Files.exists(input.file())) {
            if (noCreate) {
                throw new CommandFailure(input.file() + ": no such file (--no-create)");
            }
            try {
                options.create(input.file(), builder);
            } catch (FileAlreadyExistsException raced) {
                // Another process created it meanwhile: add to that one.
            }
        }
        FilterVerbs.add(input, root.io());
        return 0;
    }

    @Command(
            name = "exists",
            description = {
                "Prints 1 or 0 per item, one per line: 1 if the filter may contain"
                        + " it (or it is a false positive), 0 if it certainly does not (BF.EXISTS, BF.MEXISTS).",
                "With no ITEM, answers each line of standard input."
            },
            footer = {"%nExample:%n  mapsketch bf exists visitors.bf alice@example.com carol@example.com"})
    int exists(@Mixin FileAndItems input) throws IOException {
        FilterVerbs.exists(input, root.io());
        return 0;
    }

    @Command(
            name = "card",
            description = "Prints the number of distinct items the filter holds, estimated from its fill"
                    + " (BF.CARD); an item added twice counts once. Read-only.",
            footer = {"%nExample:%n  mapsketch bf card visitors.bf"})
    int card(@Parameters(paramLabel = "FILE", description = "A Bloom filter file or directory.") Path file)
            throws IOException {
        try (MembershipFilter filter = MembershipFilter.open(file, OpenMode.READ_ONLY)) {
            card(filter, root.io());
        }
        return 0;
    }

    /** Prints BF.CARD's reply: the distinct items the open filter holds, estimated from its fill. */
    static void card(MembershipFilter filter, CommandIo io) {
        io.out().println(filter.estimatedItems());
    }

    @Override
    public boolean reads(SketchKind kind) {
        return KINDS.contains(kind);
    }

    @Override
    public Sketch open(Path file, OpenMode mode) throws IOException {
        return MembershipFilter.open(file, mode);
    }
}
