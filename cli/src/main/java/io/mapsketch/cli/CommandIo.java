package io.mapsketch.cli;

import java.io.InputStream;
import java.io.PrintWriter;

/**
 * What a verb reads and writes: standard input (items, when a verb is given none as arguments),
 * standard output and standard error, and whether a person watches both outputs on a terminal
 * (then long inputs show a progress bar on standard error).
 *
 * @param in standard input
 * @param out standard output; flushed once the verb ends
 * @param err standard error
 * @param terminal {@code true} if standard output and standard error are both terminals
 */
record CommandIo(InputStream in, PrintWriter out, PrintWriter err, boolean terminal) {
}
