package io.mapsketch.cli;

import io.mapsketch.Sketch;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One command line of {@code mapsketch pipe} as its command sees it: the arguments after the command's
 * name (argument 1 is the first), its files from the open ones ({@link PipeFiles}), and where its reply
 * goes. A command either writes its values to {@link #reply()} itself, or runs a verb's logic with
 * {@link #io()}, whose standard output is gathered and becomes its values, one per line the verb
 * printed; or it runs a whole verb, as the command line {@code mapsketch ARGS} would ({@link #runVerb}).
 */
final class PipeCall {

    /** A verb's logic over an open sketch and items: {@code CuckooCommands::add}, ... */
    @FunctionalInterface
    interface ItemsVerb<S extends Sketch> {
        /**
         * Runs it.
         *
         * @param sketch the open sketch
         * @param items its file and the items
         * @param io where it prints
         */
        void run(S sketch, FileAndItems items, CommandIo io);
    }

    /** A verb's logic over an open sketch and ITEM COUNT pairs: {@code CountMinCommands::incrby}, ... */
    @FunctionalInterface
    interface PairsVerb<S extends Sketch> {
        /**
         * Runs it.
         *
         * @param sketch the open sketch
         * @param file its file
         * @param pairs the ITEM COUNT arguments
         * @param counts the counts, checked
         * @param io where it prints
         */
        void run(S sketch, Path file, List<String> pairs, long[] counts, CommandIo io);
    }

    private final PipeArguments arguments;
    private final PipeFiles files;
    private final PipeReply reply;
    private final PrintWriter err;
    private final StringWriter printed = new StringWriter();
    private final CommandIo io;
    private int[] itemOffsets = new int[16];
    private int[] itemLengths = new int[16];
    private boolean[] results = new boolean[16];

    PipeCall(PipeArguments arguments, PipeFiles files, PipeReply reply, PrintWriter err) {
        this.arguments = arguments;
        this.files = files;
        this.reply = reply;
        this.err = err;
        this.io = new CommandIo(InputStream.nullInputStream(), new PrintWriter(printed), err, false);
    }

    /** How many arguments follow the command's name. */
    int count() {
        return arguments.count() - 1;
    }

    /** Argument {@code i} (from 1) as a string. */
    String text(int i) {
        return arguments.text(i);
    }

    /** Whether argument {@code i} is the keyword {@code upper}, in any case. */
    boolean is(int i, String upper) {
        return arguments.is(i, upper);
    }

    /** Arguments {@code from} to the last, as strings. */
    List<String> texts(int from) {
        List<String> texts = new ArrayList<>(count() - from + 1);
        for (int i = from; i <= count(); i++) {
            texts.add(text(i));
        }
        return texts;
    }

    /** The file argument {@code i} names, open as {@code type} ({@link PipeFiles#open}). */
    <S extends Sketch> PipeFiles.Entry open(int i, Class<S> type, SketchFiles.Opener<? extends S> opener, boolean write)
            throws IOException {
        return files.open(arguments.data(), arguments.offset(i), arguments.length(i), type, opener, write);
    }

    /** The reply line of this command. */
    PipeReply reply() {
        return reply;
    }

    /** The streams for a verb's logic: its standard output becomes the reply, standard input is empty. */
    CommandIo io() {
        return io;
    }

    /** The buffer holding the arguments' bytes. */
    byte[] data() {
        return arguments.data();
    }

    /** Offsets of the arguments from {@code from} on, from index 0 (valid until the next {@link #items}). */
    int[] itemOffsets() {
        return itemOffsets;
    }

    /** Byte counts of the arguments from {@code from} on, from index 0. */
    int[] itemLengths() {
        return itemLengths;
    }

    /** A result per item for batch lookups, at least {@link #items} long. */
    boolean[] results() {
        return results;
    }

    /** Puts the arguments from {@code from} on into {@link #itemOffsets} and {@link #itemLengths}; returns how many. */
    int items(int from) {
        int count = arguments.count() - from;
        if (itemOffsets.length < count) {
            itemOffsets = new int[count];
            itemLengths = new int[count];
            results = new boolean[count];
        }
        return arguments.copyFrom(from, itemOffsets, itemLengths);
    }

    /** Runs {@code verb} on the file of argument 1 and the items from argument 2 on. */
    <S extends Sketch> void items(
            Class<S> type, SketchFiles.Opener<? extends S> opener, boolean write, ItemsVerb<S> verb)
            throws IOException {
        PipeFiles.Entry file = open(1, type, opener, write);
        verb.run(type.cast(file.sketch()), new FileAndItems(file.path(), texts(2)), io);
    }

    /** Runs {@code verb} on the file of argument 1 and the ITEM COUNT pairs from argument 2 on. */
    <S extends Sketch> void pairs(Class<S> type, SketchFiles.Opener<? extends S> opener, PairsVerb<S> verb)
            throws IOException {
        List<String> pairs = texts(2);
        long[] counts = CountMinCommands.counts(pairs);
        PipeFiles.Entry file = open(1, type, opener, true);
        verb.run(type.cast(file.sketch()), file.path(), pairs, counts, io);
    }

    /** The lines a verb's logic printed since the last call, taken out. */
    List<String> printed() {
        io.out().flush();
        if (printed.getBuffer().isEmpty()) {
            return List.of();
        }
        List<String> lines = printed.toString().lines().toList();
        printed.getBuffer().setLength(0);
        return lines;
    }

    /** Drops what a verb's logic printed (its command failed). */
    void dropPrinted() {
        io.out().flush();
        printed.getBuffer().setLength(0);
    }

    /**
     * Runs the verb {@code mapsketch ARGS} as the command line would (opening its own files), its output
     * the reply; a verb that fails throws its one line, less the {@code mapsketch:} prefix and the pointer
     * to the help.
     */
    void runVerb(List<String> args) {
        StringWriter verbErr = new StringWriter();
        int status = Main.run(
                args.toArray(String[]::new),
                new CommandIo(InputStream.nullInputStream(), io.out(), new PrintWriter(verbErr), false));
        String said = verbErr.toString();
        if (status != 0) {
            String line = said.lines().findFirst().orElse("exit status " + status);
            throw new CommandFailure(line.replaceFirst("^mapsketch: ", "").replaceFirst("; see '[^']*--help'$", ""));
        }
        err.print(said);
    }
}
