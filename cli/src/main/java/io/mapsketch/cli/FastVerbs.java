package io.mapsketch.cli;

import io.mapsketch.IncompatibleSketchException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;

/**
 * The verbs a script calls most, {@code bf exists FILE ITEM...} and its like, run without picocli: a
 * command line of such a verb whose arguments after the verb are all plain (none starts with {@code -},
 * an option or {@code --help}, or {@code @}, picocli's argument file) means FILE and ITEMs and nothing
 * else, so it runs the verb's logic at once, with the replies, refusals and exit statuses that picocli's
 * run of the same verb gives ({@link FaultHandler}, {@link UsageErrorHandler}). Any other command line
 * goes to picocli. Why: building picocli's model of a family is most of a single command's start-up
 * (picocli's classes are of a class-file version that the ahead-of-time cache does not keep).
 */
final class FastVerbs {

    /** What {@link #run} returns for a command line that is not one of these verbs. */
    static final int NOT_FAST = -1;

    /** Up to this many ITEM arguments, a command line's few keys use the scalar kernels ({@link #fewKeys}). */
    static final int FEW_KEYS = 64;

    /** A verb's logic with its opening of the file. */
    @FunctionalInterface
    private interface Verb {
        void run(FileAndItems input, CommandIo io) throws IOException;
    }

    private static final Map<String, Verb> VERBS = Map.of(
            "bf exists", FilterVerbs::exists,
            "cf exists", FilterVerbs::exists,
            "bf add", FilterVerbs::add,
            "cms query", CountMinCommands::query,
            "hll add", HyperLogLogCommands::add);

    private FastVerbs() {}

    /**
     * Runs the command line if it is a plain {@code FAMILY VERB FILE [ITEM...]} of one of these verbs.
     *
     * @return its exit status, or {@link #NOT_FAST}
     */
    static int run(String[] args, CommandIo io) {
        Verb verb = verb(args);
        if (verb == null) {
            return NOT_FAST;
        }
        String name = args[0] + " " + args[1];
        try {
            verb.run(new FileAndItems(Path.of(args[2]), Arrays.asList(args).subList(3, args.length)), io);
            return 0;
        } catch (IllegalArgumentException refused) {
            if (refused instanceof IncompatibleSketchException) {
                io.err().println("mapsketch: " + FaultHandler.describe(refused));
                return 1;
            }
            io.err().println(UsageErrorHandler.line(refused.getMessage(), "mapsketch " + name));
            return 2;
        } catch (IOException | RuntimeException fault) {
            io.err().println("mapsketch: " + FaultHandler.describe(fault));
            return 1;
        }
    }

    /**
     * Whether the command line is one of these verbs with at least one and at most {@value #FEW_KEYS}
     * ITEM arguments: so few keys are answered sooner by the scalar kernels than by loading the Vector
     * API, whose batch kernels pay only for many keys (the answers are the same).
     */
    static boolean fewKeys(String[] args) {
        return verb(args) != null && args.length > 3 && args.length <= 3 + FEW_KEYS;
    }

    private static Verb verb(String[] args) {
        if (args.length < 3) {
            return null;
        }
        for (int i = 2; i < args.length; i++) {
            if (args[i].startsWith("-") || args[i].startsWith("@")) {
                return null;
            }
        }
        return VERBS.get(args[0] + " " + args[1]);
    }
}
