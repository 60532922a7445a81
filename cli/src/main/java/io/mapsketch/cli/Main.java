package io.mapsketch.cli;

import io.mapsketch.kernels.Kernels;
import java.io.BufferedWriter;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Entry point of the {@code mapsketch} command. Exit status 0 on success, 1 for a missing, bad or
 * incompatible file, an I/O error or a refused operation (one line on standard error naming the
 * file and the fault), 2 for a usage error.
 *
 * <p>Long inputs to the verbs that print nothing per item show a progress line on standard error
 * when the system property {@value #TERMINAL_PROPERTY} is {@code true}: the {@code mapsketch}
 * launcher sets it when standard input is not a terminal and standard output and standard error
 * are. (Java cannot tell by itself: on JDK 25 {@code System.console()} is {@code null} whenever
 * standard input is redirected, which is exactly when inputs are long.)
 */
public final class Main {

    /** The system property that says a person watches a long standard input go by on the terminal. */
    public static final String TERMINAL_PROPERTY = "mapsketch.terminal";

    /**
     * The kernels log which implementation they chose; a command prints none of it, so that its standard
     * error holds only its own lines (the launcher gives the JVM the Vector API module, so the choice
     * needs no advice). Held here because the logging framework keeps loggers weakly.
     */
    private static final Logger KERNEL_NOTICES = Logger.getLogger("io.mapsketch.kernels");

    private Main() {}

    /**
     * Runs one verb and exits with its status. A command line of a few keys ({@link FastVerbs#fewKeys})
     * runs the scalar kernels, unless the kernels' property says otherwise.
     *
     * @param args the verb and its arguments
     */
    public static void main(String[] args) {
        KERNEL_NOTICES.setLevel(Level.OFF);
        if (FastVerbs.fewKeys(args) && System.getProperty(Kernels.IMPLEMENTATION_PROPERTY) == null) {
            System.setProperty(Kernels.IMPLEMENTATION_PROPERTY, "scalar");
        }
        PrintWriter out =
                new PrintWriter(new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8)));
        PrintWriter err = new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true);
        System.exit(run(args, new CommandIo(System.in, out, err, Boolean.getBoolean(TERMINAL_PROPERTY))));
    }

    /**
     * Runs one verb on the given streams and returns its exit status; flushes both outputs. The verbs
     * scripts call most run without picocli ({@link FastVerbs}).
     */
    static int run(String[] args, CommandIo io) {
        try (Notices _ = Notices.showOn(io.err())) {
            int fast = FastVerbs.run(args, io);
            if (fast != FastVerbs.NOT_FAST) {
                return fast;
            }
            // Through another class: the linking of this one then loads none of picocli's classes.
            return MapsketchCommand.execute(io, args);
        } finally {
            io.out().flush();
            io.err().flush();
        }
    }
}
