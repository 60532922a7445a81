package io.mapsketch.cli;

import io.mapsketch.OpenMode;
import io.mapsketch.Sketch;
import io.mapsketch.SketchKind;
import io.mapsketch.membership.BlockedBloomFilter;
import io.mapsketch.membership.BloomFilter;
import io.mapsketch.membership.CountingBloomFilter;
import io.mapsketch.membership.FilterBuilder;
import io.mapsketch.membership.MembershipFilter;
import java.io.IOException;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code mapsketch bf}: Bloom filters, "is X in the set?" with false positives only. */
@Command(name = "bf", description = "Bloom filters: is X in the set? (false positives only, never a false negative)")
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
            description = "Creates an empty Bloom filter sized for N items at false-positive rate P.",
            footer = {"%nExample:%n  mapsketch bf create visitors.bf --capacity 10000000 --error-rate 0.01"})
    int create(
            @Parameters(paramLabel = "FILE", description = "The file to create.") Path file,
            @Option(
                            names = "--capacity",
                            paramLabel = "N",
                            required = true,
                            description = "Items the filter is sized for: at N items its false-positive rate is P.")
                    long capacity,
            @Option(
                            names = "--error-rate",
                            paramLabel = "P",
                            required = true,
                            description = "False-positive rate wanted at N items, in (0, 1), e.g. 0.01.")
                    double errorRate,
            @Option(
                            names = "--layout",
                            paramLabel = "LAYOUT",
                            defaultValue = "blocked",
                            description = "blocked (default: one cache line per key, fastest), classic, or counting"
                                    + " (4-bit counters, four times the memory).")
                    Layout layout,
            @Mixin CreateOptions options)
            throws IOException {
        options.create(file, layout.builder().expectedItems(capacity).falsePositiveRate(errorRate));
        return 0;
    }

    @Command(
            name = "add",
            description = {
                "Adds items (BF.ADD, BF.MADD). Any number of processes may add to" + " one file at once.",
                "With no ITEM, adds each line of standard input."
            },
            footer = {
                "%nExamples:%n  mapsketch bf add visitors.bf alice@example.com bob@example.com",
                "  cut -f1 access.log | mapsketch bf add visitors.bf"
            })
    int add(@Mixin FileAndItems input) throws IOException {
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

    @Override
    public boolean reads(SketchKind kind) {
        return KINDS.contains(kind);
    }

    @Override
    public void describe(Path file, Map<String, Object> facts) throws IOException {
        FilterVerbs.describe(file, facts);
    }

    @Override
    public Sketch open(Path file, OpenMode mode) throws IOException {
        return MembershipFilter.open(file, mode);
    }
}
