package io.mapsketch.cli;

import io.mapsketch.engine.SketchSizing;

import java.io.PrintStream;
import java.util.Locale;

/**
 * Entry point of the {@code mapsketch} command. Exit status 0 on success, 2 on a usage error.
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
        switch (verb) {
            case "demo" -> {
                printSizingTable(out);
                return 0;
            }
            case "help", "--help", "-h" -> {
                printUsage(out);
                return 0;
            }
            default -> {
                err.println("mapsketch: unknown verb '" + verb + "'");
                printUsage(err);
                return 2;
            }
        }
    }

    private static void printUsage(PrintStream out) {
        out.println("usage: mapsketch <verb>");
        out.println("  demo   the sizes and error rates of the seed sketches");
        out.println("  help   this text");
    }

    /** The seed sizes of DESIGN.md, computed by the same formulas the builders use. */
    static void printSizingTable(PrintStream out) {
        out.println("mapsketch sizing (the formulas every builder uses)");
        out.println();
        long bits = SketchSizing.bloomBits(10_000, 0.01);
        int hashes = SketchSizing.bloomHashes(bits, 10_000);
        out.printf(Locale.ROOT, "Bloom filter, 10,000 items at 1%%: %,d bits (%.1f KB), %d hashes%n",
                bits, bits / 8.0 / 1024, hashes);
        out.printf(Locale.ROOT, "  expected FPR at capacity %.2f%%, at twice capacity %.2f%%%n",
                100 * SketchSizing.bloomFalsePositiveRate(bits, hashes, 10_000),
                100 * SketchSizing.bloomFalsePositiveRate(bits, hashes, 20_000));
        int width = SketchSizing.countMinWidth(0.001);
        int depth = SketchSizing.countMinDepth(0.01);
        out.printf(Locale.ROOT, "Count-Min, eps 0.001, delta 0.01: %,d x %d = %,d counters (%.1f KB at 4 bytes)%n",
                width, depth, (long) width * depth, width * depth * 4 / 1024.0);
        int registers = SketchSizing.hyperLogLogRegisters(14);
        out.printf(Locale.ROOT, "HyperLogLog, p = 14: %,d registers (%d KB), %.2f%% relative standard error%n",
                registers, registers / 1024, 100 * SketchSizing.hyperLogLogRelativeStandardError(14));
    }
}
