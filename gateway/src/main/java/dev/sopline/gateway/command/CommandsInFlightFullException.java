package dev.sopline.gateway.command;

/**
 * This gateway already waits on the engine for as many commands as it lets wait at once: the command was not
 * published, and the client gets 503 at once and may retry. Turning the excess away keeps the commands in flight, and
 * so the time each waits, bounded while the engine decides fewer commands a second than arrive.
 */
public class CommandsInFlightFullException extends EngineUnavailableException {

    /** What the client is told: the command was not taken, so sending it again later is safe. */
    public static final String CLIENT_MESSAGE = "The gateway waits on the engine for as many commands as it lets wait at once;"
            + " this one was not taken";

    public CommandsInFlightFullException(int limit) {
        super("Expected room for the command among the " + limit + " that may wait for the engine's reply; it was not published", null);
    }
}
