package io.mapsketch.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.Locale;

/**
 * {@code mapsketch pipe}: Redis command lines on standard input ({@code BF.ADD visitors.bf alice}), one
 * reply line each on standard output ({@link PipeReply}), the files kept open across lines
 * ({@link PipeFiles}). A command that fails replies {@code ERR MESSAGE} (the line its verb prints on
 * standard error) and the pipe goes on; blank lines are not commands and get no reply. Standard output
 * is flushed whenever the pipe has answered every line read so far, so that a script may write a command
 * and read its reply. Exit status 0 if every command succeeded, else 1, with one line on standard error
 * that counts the failures.
 */
final class Pipe {

    private static final int CHUNK = 64 * 1024;

    private final CommandIo io;
    private final PipeArguments arguments = new PipeArguments();
    private final PipeReply reply;
    private final PipeCall call;
    private final PipeFiles files;
    private PipeCommands.Command lastCommand;
    private byte[] lastName = new byte[0];
    private long lines;
    private long commands;
    private long failures;
    private long firstFailure;

    private Pipe(CommandIo io, PipeFiles files) {
        this.io = io;
        this.files = files;
        this.reply = new PipeReply(io.out());
        this.call = new PipeCall(arguments, files, reply, io.err());
    }

    /** Runs the command lines of standard input and returns the exit status. */
    static int run(CommandIo io) {
        PipeFiles files = new PipeFiles(io.err());
        Pipe pipe = new Pipe(io, files);
        try {
            pipe.read(io.in());
        } catch (IOException e) {
            pipe.reply.flush();
            io.err().println("mapsketch: pipe: standard input: " + e.getMessage());
            return 1;
        } finally {
            files.close();
        }
        return pipe.status();
    }

    private int status() {
        if (failures > 0) {
            io.err()
                    .println("mapsketch: pipe: " + failures + " of " + commands + " commands failed (replied ERR),"
                            + " the first on line " + firstFailure);
            return 1;
        }
        return files.closeFailed() ? 1 : 0;
    }

    /** Runs each line of {@code in}; the last needs no newline. */
    private void read(InputStream in) throws IOException {
        byte[] buffer = new byte[CHUNK];
        int filled = 0;
        while (true) {
            if (filled == buffer.length) {
                buffer = Arrays.copyOf(buffer, 2 * buffer.length);
            }
            reply.flush();
            int read = in.read(buffer, filled, buffer.length - filled);
            if (read < 0) {
                if (filled > 0) {
                    line(buffer, 0, filled);
                }
                reply.flush();
                return;
            }
            int end = filled + read;
            int lineStart = 0;
            for (int i = filled; i < end; i++) {
                if (buffer[i] == '\n') {
                    line(buffer, lineStart, i);
                    lineStart = i + 1;
                }
            }
            filled = end - lineStart;
            System.arraycopy(buffer, lineStart, buffer, 0, filled);
        }
    }

    /** Runs the command line {@code buffer[from, to)}, replying to it unless it is blank. */
    private void line(byte[] buffer, int from, int to) {
        lines++;
        String fault = arguments.split(buffer, from, to);
        if (fault == null && arguments.count() == 0) {
            return;
        }
        commands++;
        try {
            if (fault != null) {
                throw new IllegalArgumentException(fault);
            }
            requireUtf8();
            PipeCommands.Command command = command();
            int count = arguments.count() - 1;
            if (count < command.least() || count > command.most()) {
                throw new IllegalArgumentException("wrong number of arguments for '" + command.name() + "' command");
            }
            command.handler().run(call);
            for (String line : call.printed()) {
                reply.value(line);
            }
            if (command.repliesOk() && reply.isEmpty()) {
                reply.value("OK");
            }
            reply.end();
        } catch (IOException | RuntimeException e) {
            call.dropPrinted();
            if (failures++ == 0) {
                firstFailure = lines;
            }
            reply.error(FaultHandler.describe(e));
        }
    }

    /** The command the line's first argument names. */
    private PipeCommands.Command command() {
        byte[] data = arguments.data();
        int offset = arguments.offset(0);
        int length = arguments.length(0);
        if (lastCommand != null && Arrays.equals(lastName, 0, lastName.length, data, offset, offset + length)) {
            return lastCommand;
        }
        String name = arguments.text(0);
        PipeCommands.Command command = PipeCommands.named(name);
        if (command == null) {
            throw new IllegalArgumentException("unknown command '" + name + "'");
        }
        lastCommand = command;
        lastName = Arrays.copyOfRange(data, offset, offset + length);
        return command;
    }

    /** Refuses an argument that is not UTF-8 text, as the verbs refuse a line of standard input. */
    private void requireUtf8() {
        byte[] data = arguments.data();
        for (int i = 0; i < arguments.count(); i++) {
            int offset = arguments.offset(i);
            int bad = Utf8Text.firstInvalid(data, offset, offset + arguments.length(i));
            if (bad >= 0) {
                throw new IllegalArgumentException(String.format(
                        Locale.ROOT,
                        "argument %d is not UTF-8 text (byte 0x%02x at byte %d of it); items are UTF-8 strings",
                        i,
                        data[bad] & 0xFF,
                        bad - offset + 1));
            }
        }
    }
}
