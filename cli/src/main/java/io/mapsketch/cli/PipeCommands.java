package io.mapsketch.cli;

import io.mapsketch.cardinality.HyperLogLog;
import io.mapsketch.frequency.CountMinSketch;
import io.mapsketch.frequency.TopK;
import io.mapsketch.membership.CuckooFilter;
import io.mapsketch.membership.MembershipFilter;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The commands of {@code mapsketch pipe}, by their Redis names, each mapped to its verb as
 * {@code docs/cli.md} maps them: the commands on one sketch and items run the verb's logic on the file
 * kept open ({@link PipeFiles}); those that create or merge files run the verb itself.
 */
final class PipeCommands {

    /** How a command runs. */
    @FunctionalInterface
    interface Handler {
        /**
         * Runs the command line.
         *
         * @param call its arguments, files and reply
         * @throws IOException if a file cannot be opened or read
         */
        void run(PipeCall call) throws IOException;
    }

    /**
     * One command.
     *
     * @param name its Redis name, in capitals
     * @param least the fewest arguments after the name
     * @param most the most arguments after the name
     * @param repliesOk whether it replies {@code OK} when its verb prints nothing (a create, a merge)
     * @param handler what it runs
     */
    record Command(String name, int least, int most, boolean repliesOk, Handler handler) {}

    private static final int ANY = Integer.MAX_VALUE;
    private static final boolean READ = false;
    private static final boolean WRITE = true;

    private static final Map<String, Command> COMMANDS = new HashMap<>();

    static {
        // Bloom filters.
        add("BF.ADD", 2, 2, PipeCommands::bloomAdd);
        add("BF.MADD", 2, ANY, PipeCommands::bloomAdd);
        add("BF.EXISTS", 2, 2, PipeCommands::exists);
        add("BF.MEXISTS", 2, ANY, PipeCommands::exists);
        add(
                "BF.CARD",
                1,
                1,
                call -> BloomCommands.card(
                        (MembershipFilter) call.open(1, MembershipFilter.class, MembershipFilter::open, READ)
                                .sketch(),
                        call.io()));
        verb("BF.RESERVE", 3, ANY, PipeCommands::bloomReserve);
        verb("BF.INSERT", 3, ANY, PipeCommands::bloomInsert);
        // Cuckoo filters.
        verb("CF.RESERVE", 2, 2, call -> List.of("cf", "create", "--capacity", call.text(2), "--", call.text(1)));
        items("CF.ADD", CuckooFilter.class, CuckooFilter::open, WRITE, CuckooCommands::add);
        items("CF.ADDNX", CuckooFilter.class, CuckooFilter::open, WRITE, CuckooCommands::addnx);
        add("CF.EXISTS", 2, 2, PipeCommands::exists);
        add("CF.MEXISTS", 2, ANY, PipeCommands::exists);
        items("CF.DEL", CuckooFilter.class, CuckooFilter::open, WRITE, CuckooCommands::del);
        items("CF.COUNT", CuckooFilter.class, CuckooFilter::open, READ, CuckooCommands::count);
        // Count-Min sketches.
        verb(
                "CMS.INITBYPROB",
                3,
                3,
                call -> List.of(
                        "cms", "create", "--epsilon", call.text(2), "--delta", call.text(3), "--", call.text(1)));
        verb(
                "CMS.INITBYDIM",
                3,
                3,
                call -> List.of("cms", "create", "--width", call.text(2), "--depth", call.text(3), "--", call.text(1)));
        add(
                "CMS.INCRBY",
                3,
                ANY,
                call -> call.pairs(CountMinSketch.class, CountMinSketch::open, CountMinCommands::incrby));
        items("CMS.QUERY", CountMinSketch.class, CountMinSketch::open, READ, Saturation::printEstimates);
        verb("CMS.MERGE", 3, ANY, PipeCommands::countMinMerge);
        // Top-K.
        verb("TOPK.RESERVE", 2, 2, call -> List.of("topk", "create", "--k", call.text(2), "--", call.text(1)));
        items("TOPK.ADD", TopK.class, TopK::open, WRITE, TopKCommands::add);
        add("TOPK.INCRBY", 3, ANY, call -> call.pairs(TopK.class, TopK::open, TopKCommands::incrby));
        items("TOPK.QUERY", TopK.class, TopK::open, READ, TopKCommands::query);
        items("TOPK.COUNT", TopK.class, TopK::open, READ, Saturation::printEstimates);
        add("TOPK.LIST", 1, 2, PipeCommands::topKList);
        // HyperLogLog.
        items("PFADD", HyperLogLog.class, HyperLogLog::open, WRITE, HyperLogLogCommands::add);
        add("PFCOUNT", 1, ANY, PipeCommands::hyperLogLogCount);
        verb("PFMERGE", 2, ANY, call -> {
            List<String> args = new ArrayList<>(List.of("hll", "merge", "--"));
            args.addAll(call.texts(1));
            return args;
        });
    }

    private PipeCommands() {}

    /** The command of a name, in any case, or {@code null}. */
    static Command named(String name) {
        return COMMANDS.get(name.toUpperCase(Locale.ROOT));
    }

    private static void add(String name, int least, int most, Handler handler) {
        COMMANDS.put(name, new Command(name, least, most, false, handler));
    }

    private static <S extends io.mapsketch.Sketch> void items(
            String name,
            Class<S> type,
            SketchFiles.Opener<? extends S> opener,
            boolean write,
            PipeCall.ItemsVerb<S> verb) {
        add(name, 2, ANY, call -> call.items(type, opener, write, verb));
    }

    /** A command that runs a verb: {@code args} turns its arguments into the verb's command line. */
    private static void verb(String name, int least, int most, VerbLine args) {
        COMMANDS.put(name, new Command(name, least, most, true, call -> call.runVerb(args.of(call))));
    }

    /** The command line of the verb a command runs. */
    @FunctionalInterface
    private interface VerbLine {
        List<String> of(PipeCall call);
    }

    /** BF.ADD and BF.MADD: {@link FilterVerbs#added} per item, on the filter kept open. */
    private static void bloomAdd(PipeCall call) throws IOException {
        PipeFiles.Entry file = call.open(1, MembershipFilter.class, MembershipFilter::open, WRITE);
        MembershipFilter filter = (MembershipFilter) file.sketch();
        PipeReply reply = call.reply();
        int count = call.items(2);
        Items.each(
                file.path(),
                call.data(),
                call.itemOffsets(),
                call.itemLengths(),
                count,
                (bytes, offset, length) -> reply.integer(FilterVerbs.added(filter, bytes, offset, length)));
    }

    /** BF.EXISTS, BF.MEXISTS, CF.EXISTS and CF.MEXISTS: {@link FilterVerbs#lookUp}, on the filter kept open. */
    private static void exists(PipeCall call) throws IOException {
        MembershipFilter filter = (MembershipFilter) call.open(1, MembershipFilter.class, MembershipFilter::open, READ)
                .sketch();
        int count = call.items(2);
        boolean[] results = call.results();
        FilterVerbs.lookUp(filter, call.data(), call.itemOffsets(), call.itemLengths(), count, results);
        PipeReply reply = call.reply();
        for (int i = 0; i < count; i++) {
            reply.integer(results[i] ? 1 : 0);
        }
    }

    /** TOPK.LIST key [WITHCOUNT]: the items, or each item followed by its count. */
    private static void topKList(PipeCall call) throws IOException {
        boolean withCount = call.count() == 2;
        if (withCount && !call.is(2, "WITHCOUNT")) {
            throw new IllegalArgumentException("TOPK.LIST: '" + call.text(2) + "' is not WITHCOUNT");
        }
        TopK sketch = (TopK) call.open(1, TopK.class, TopK::open, READ).sketch();
        TopKCommands.list(sketch, withCount, false, call.io().out());
        for (String line : call.printed()) {
            int tab = withCount ? line.lastIndexOf('\t') : -1;
            if (tab < 0) {
                call.reply().value(line);
            } else {
                call.reply().value(line.substring(0, tab));
                call.reply().value(line.substring(tab + 1));
            }
        }
    }

    /** PFCOUNT key...: the union's estimate, over the files kept open. */
    private static void hyperLogLogCount(PipeCall call) throws IOException {
        List<Path> files = new ArrayList<>(call.count());
        List<HyperLogLog> sketches = new ArrayList<>(call.count());
        for (int i = 1; i <= call.count(); i++) {
            PipeFiles.Entry file = call.open(i, HyperLogLog.class, HyperLogLog::open, READ);
            files.add(file.path());
            sketches.add((HyperLogLog) file.sketch());
        }
        HyperLogLogCommands.count(files, sketches, call.io());
    }

    /** BF.RESERVE key error_rate capacity [EXPANSION s] [NONSCALING]: {@code bf create}. */
    private static List<String> bloomReserve(PipeCall call) {
        List<String> args =
                new ArrayList<>(List.of("bf", "create", "--error-rate", call.text(2), "--capacity", call.text(3)));
        for (int i = 4; i <= call.count(); i++) {
            i = bloomOption(call, "BF.RESERVE", i, args);
        }
        args.add("--");
        args.add(call.text(1));
        return args;
    }

    /**
     * BF.INSERT key [CAPACITY n] [ERROR p] [EXPANSION s] [NOCREATE] [NONSCALING] ITEMS item...:
     * {@code bf insert}.
     */
    private static List<String> bloomInsert(PipeCall call) {
        List<String> args = new ArrayList<>(List.of("bf", "insert"));
        int i = 2;
        for (; i <= call.count() && !call.is(i, "ITEMS"); i++) {
            if (call.is(i, "CAPACITY") && i < call.count()) {
                args.addAll(List.of("--capacity", call.text(++i)));
            } else if (call.is(i, "ERROR") && i < call.count()) {
                args.addAll(List.of("--error-rate", call.text(++i)));
            } else if (call.is(i, "NOCREATE")) {
                args.add("--no-create");
            } else {
                i = bloomOption(call, "BF.INSERT", i, args);
            }
        }
        if (i >= call.count()) {
            throw new IllegalArgumentException("BF.INSERT: ITEMS and at least one item must end the command");
        }
        args.add("--");
        args.add(call.text(1));
        args.addAll(call.texts(i + 1));
        return args;
    }

    /** EXPANSION s or NONSCALING at argument {@code i}: the option, and the index of its last argument. */
    private static int bloomOption(PipeCall call, String command, int i, List<String> args) {
        if (call.is(i, "EXPANSION") && i < call.count()) {
            args.addAll(List.of("--expansion", call.text(i + 1)));
            return i + 1;
        }
        if (call.is(i, "NONSCALING")) {
            return i;
        }
        throw new IllegalArgumentException(command + ": unknown argument '" + call.text(i) + "'");
    }

    /** CMS.MERGE dest numKeys src... [WEIGHTS w...]: {@code cms merge}. */
    private static List<String> countMinMerge(PipeCall call) {
        int sources;
        try {
            sources = Integer.parseInt(call.text(2));
        } catch (NumberFormatException e) {
            sources = -1;
        }
        if (sources < 1 || 2 + sources > call.count()) {
            throw new IllegalArgumentException("CMS.MERGE: numKeys is '" + call.text(2) + "', must be the number of"
                    + " sources that follow it, at least 1");
        }
        List<String> args = new ArrayList<>(List.of("cms", "merge"));
        int weights = 3 + sources;
        if (weights <= call.count()) {
            if (!call.is(weights, "WEIGHTS") || call.count() - weights != sources) {
                throw new IllegalArgumentException(
                        "CMS.MERGE: the sources may be followed only by WEIGHTS and one weight per source");
            }
            for (String weight : call.texts(weights + 1)) {
                args.add("--weights=" + weight);
            }
        }
        args.add("--");
        args.addAll(call.texts(1).subList(0, 1));
        args.addAll(call.texts(3).subList(0, sources));
        return args;
    }
}
