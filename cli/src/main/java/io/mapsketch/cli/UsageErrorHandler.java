package io.mapsketch.cli;

import picocli.CommandLine;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;

/**
 * Reports a usage error (an option missing or malformed, or an argument the engine refused, such as a
 * rate out of range or parameters no sketch file can hold) as one line on standard error, the message
 * and where the help is, and exits with status 2; never the usage text or a stack trace.
 */
final class UsageErrorHandler implements IParameterExceptionHandler {

    @Override
    public int handleParseException(ParameterException refused, String[] args) {
        CommandLine command = refused.getCommandLine();
        String message =
                String.valueOf(refused.getMessage()).replaceAll("\\R+", " ").strip();
        command.getErr()
                .println("mapsketch: " + message + "; see '"
                        + command.getCommandSpec().qualifiedName() + " --help'");
        return command.getCommandSpec().exitCodeOnInvalidInput();
    }
}
