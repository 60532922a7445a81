package io.mapsketch.cli;

import java.io.InputStream;
import java.io.PrintWriter;

/**
 * What a verb reads and writes: standard input (items, when a verb is given none as arguments),
 * standard output and standard error, and whether a person watches a long input go by (then it
 * shows a progress line on standard error).
 *
 * @param in standard input
 * @param out standard output; flushed after each chunk of standard input and when the verb ends
 * @param err standard error
 * @param terminal {@code true} if standard input is not a terminal and standard output and standard
 *     error are
 */
record CommandIo(InputStream in, PrintWriter out, PrintWriter err, boolean terminal) {

    /**
     * The streams for a verb that prints an answer per item: without the progress line, which would
     * tangle with the answers on the terminal (and the answers show the progress anyway).
     */
    CommandIo forAnswers() {
        return new CommandIo(in, out, err, false);
    }
}
