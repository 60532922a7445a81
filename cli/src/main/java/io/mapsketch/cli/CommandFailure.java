package io.mapsketch.cli;

/**
 * A verb refused or failed for a reason the user can act on (exit status 1). The message is the one
 * line printed on standard error, and names the file at fault.
 */
final class CommandFailure extends RuntimeException {

    private static final long serialVersionUID = 1L;

    CommandFailure(String message) {
        super(message);
    }
}
