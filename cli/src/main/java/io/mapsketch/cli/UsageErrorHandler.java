package io.mapsketch.cli;

import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * Reports a usage error (an option missing or malformed, or an argument the engine refused, such as a
 * rate out of range or parameters no sketch file can hold) as one line on standard error, the message
 * and where the help is, and exits with status 2; never the usage text or a stack trace. A refusal that
 * names the engine's parameter ({@code expectedItems = 0, must be >= 1}) names the option that set it
 * instead ({@code --capacity = 0, ...}).
 */
final class UsageErrorHandler implements IParameterExceptionHandler {

    /** The engine's parameters whose option is not their name in kebab case. */
    private static final Map<String, String> RENAMED_OPTIONS = Map.of(
            "expectedItems",
            "--capacity",
            "falsePositiveRate",
            "--error-rate",
            "expectedItemsPerKey",
            "--items-per-key");

    /** The engine's refusals start with the parameter's name: {@code name = value, must be ...}. */
    private static final Pattern PARAMETER = Pattern.compile("^(\\p{Alpha}\\w*) = ");

    private static final Pattern CAPITAL = Pattern.compile("(?<=[a-z0-9])([A-Z])");

    @Override
    public int handleParseException(ParameterException refused, String[] args) {
        CommandLine command = refused.getCommandLine();
        command.getErr()
                .println(line(
                        inOptionTerms(String.valueOf(refused.getMessage()), command.getCommandSpec()),
                        command.getCommandSpec().qualifiedName()));
        return command.getCommandSpec().exitCodeOnInvalidInput();
    }

    /** The one line of a usage error: {@code mapsketch: MESSAGE; see 'VERB --help'}, the message on one line. */
    static String line(String message, String verb) {
        return "mapsketch: " + String.valueOf(message).replaceAll("\\R+", " ").strip() + "; see '" + verb + " --help'";
    }

    /** The message with a leading engine parameter replaced by the verb's option for it, if the verb has one. */
    static String inOptionTerms(String message, CommandSpec verb) {
        Matcher parameter = PARAMETER.matcher(message);
        if (!parameter.find()) {
            return message;
        }
        String name = parameter.group(1);
        String option = RENAMED_OPTIONS.getOrDefault(
                name, "--" + CAPITAL.matcher(name).replaceAll("-$1").toLowerCase(Locale.ROOT));
        return verb.findOption(option) == null ? message : option + message.substring(parameter.end(1));
    }
}
