package io.mapsketch.cli;

import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** Runs the command in this JVM, as {@code Main} would, with standard input given and both outputs captured. */
final class InProcess {

    /** What one run left: its exit status and everything it wrote. */
    record Result(int status, String out, String err) {

        /** The output's lines. */
        List<String> lines() {
            return out.lines().toList();
        }
    }

    private InProcess() {}

    static Result run(String... args) {
        return withInput("", args);
    }

    static Result withInput(String stdin, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandIo io = new CommandIo(
                new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
                new PrintWriter(out),
                new PrintWriter(err),
                false);
        int status = Main.run(args, io);
        return new Result(status, out.toString(), err.toString());
    }
}
