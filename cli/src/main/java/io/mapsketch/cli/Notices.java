package io.mapsketch.cli;

import java.io.PrintWriter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Shows what the memory module warns of while a verb runs (a writer count it repaired, blocks of a
 * sparse file it could not reserve, native access denied) as one line each on the command's
 * standard error: {@code mapsketch: warning: MESSAGE}.
 */
final class Notices extends Handler implements AutoCloseable {

    /** The memory module's logger; held here because the logging framework keeps loggers weakly. */
    private static final Logger MEMORY = Logger.getLogger("io.mapsketch.memory");

    private final PrintWriter err;

    private Notices(PrintWriter err) {
        this.err = err;
        setLevel(Level.WARNING);
    }

    /** Shows the memory module's warnings on {@code err} until {@link #close()}. */
    static Notices showOn(PrintWriter err) {
        Notices notices = new Notices(err);
        MEMORY.setUseParentHandlers(false);
        MEMORY.addHandler(notices);
        return notices;
    }

    @Override
    public void publish(LogRecord record) {
        if (isLoggable(record)) {
            err.println("mapsketch: warning: " + record.getMessage());
        }
    }

    @Override
    public void flush() {
        err.flush();
    }

    @Override
    public void close() {
        MEMORY.removeHandler(this);
    }
}
