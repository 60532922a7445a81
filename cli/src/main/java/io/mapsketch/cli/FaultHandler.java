package io.mapsketch.cli;

import io.mapsketch.IncompatibleSketchException;
import io.mapsketch.SketchFileException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * Turns what a verb threw into the command's exit status: an argument the engine refused (a rate
 * out of range, a count below 1) is a usage error, status 2, one line ({@link UsageErrorHandler}); every
 * other fault (a missing, corrupt, locked or incompatible file, an I/O error, a refused operation) is
 * status 1 with one line on standard error that names the file and the fault, never a stack trace.
 */
final class FaultHandler implements IExecutionExceptionHandler {

    @Override
    public int handleExecutionException(Exception fault, CommandLine command, ParseResult parsed) throws Exception {
        if (fault instanceof IllegalArgumentException refused && !(fault instanceof IncompatibleSketchException)) {
            ParameterException usage = new ParameterException(command, refused.getMessage(), refused);
            return command.getParameterExceptionHandler()
                    .handleParseException(usage, parsed.originalArgs().toArray(String[]::new));
        }
        command.getErr().println("mapsketch: " + describe(fault));
        return 1;
    }

    /** The one line that names the file and the fault, without the {@code mapsketch: } prefix. */
    static String describe(Throwable fault) {
        return switch (fault) {
            case CommandFailure failure -> failure.getMessage();
            case SketchFileException bad -> bad.getMessage();
            case NoSuchFileException missing -> missing.getFile() + ": no such file";
            case FileAlreadyExistsException exists -> exists.getFile() + ": already exists (--force replaces it)";
            case AccessDeniedException denied -> denied.getFile() + ": permission denied";
            case FileSystemException other ->
                other.getFile() + ": "
                        + (other.getReason() != null
                                ? other.getReason()
                                : other.getClass().getSimpleName());
            case UncheckedIOException unchecked -> describe(unchecked.getCause());
            default -> fault.getMessage() != null ? fault.getMessage() : fault.toString();
        };
    }
}
