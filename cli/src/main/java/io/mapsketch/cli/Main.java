package io.mapsketch.cli;

import io.mapsketch.engine.MembershipFilter;
import io.mapsketch.memory.AccessMode;
import io.mapsketch.memory.SketchFileException;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Entry point of the {@code mapsketch} command. Exit status 0 on success, 1 for a bad or
 * incompatible file or an I/O error (one line on standard error naming the file and the fault),
 * 2 for a usage error.
 */
public final class Main {

    private Main() {
    }

    /**
     * Runs one verb.
     *
     * @param args the verb and its arguments
     */
    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        String verb = args.length == 0 ? "help" : args[0];
        try {
            return switch (verb) {
                case "demo" -> new Demo(out).run();
                case "bf" -> bloom(Arrays.copyOfRange(args, 1, args.length), out, err);
                case "info" -> info(Arrays.copyOfRange(args, 1, args.length), out, err);
                case "help", "--help", "-h" -> {
                    printUsage(out);
                    yield 0;
                }
                default -> usageError(err, "unknown verb '" + verb + "'");
            };
        } catch (NoSuchFileException e) {
            err.println("mapsketch: no such file: " + e.getFile());
            return 1;
        } catch (SketchFileException e) {
            err.println("mapsketch: " + e.getMessage());
            return 1;
        } catch (IOException e) {
            err.println("mapsketch: " + e);
            return 1;
        }
    }

    private static int bloom(String[] args, PrintStream out, PrintStream err) throws IOException {
        if (args.length < 2 || !args[0].equals("exists")) {
            return usageError(err, "expected: bf exists FILE ITEM...");
        }
        try (MembershipFilter filter = MembershipFilter.open(Path.of(args[1]), AccessMode.READ_ONLY)) {
            for (int i = 2; i < args.length; i++) {
                out.println(filter.mightContain(args[i]) ? 1 : 0);
            }
        }
        return 0;
    }

    private static int info(String[] args, PrintStream out, PrintStream err) throws IOException {
        boolean json = args.length == 2 && args[1].equals("--json");
        if (args.length != 1 && !json) {
            return usageError(err, "expected: info FILE [--json]");
        }
        Info.print(Path.of(args[0]), json, out);
        return 0;
    }

    private static int usageError(PrintStream err, String message) {
        err.println("mapsketch: " + message);
        printUsage(err);
        return 2;
    }

    private static void printUsage(PrintStream out) {
        out.println("usage: mapsketch <verb>");
        out.println("  demo                     Bloom, Count-Min and HyperLogLog on real files, measured against formulas");
        out.println("  bf exists FILE ITEM...   1 or 0 per item: may the filter contain it (UTF-8 strings)");
        out.println("  info FILE [--json]       kind, parameters, counters, clean close, fill and error of a sketch");
        out.println("  help                     this text");
    }
}
