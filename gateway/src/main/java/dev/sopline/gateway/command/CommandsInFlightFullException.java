package dev.sopline.gateway.command;

/**
 * The command's workspace has no room left among the commands this gateway lets wait on the engine at once (the
 * whole room is taken, or the workspace holds its share of it while others write): the command was not published,
 * and the client gets 503 at once and may retry. Turning the excess away keeps the commands in flight, and
 * so the time each waits, bounded while the engine decides fewer commands a second than arrive.
 */
public class CommandsInFlightFullException extends EngineUnavailableException {

    /** What the client is told: the command was not taken, so sending it again later is safe. */
    public static final String CLIENT_MESSAGE = "The gateway has no room left for this workspace's commands waiting on the engine;"
            + " this one was not taken";
    /** The API's answer: the client message and what to do. */
    public static final String ANSWER = CLIENT_MESSAGE + ": retry after the delay in Retry-After";

    public CommandsInFlightFullException(int limit) {
        super("Expected room for the command among the " + limit + " that may wait for the engine's reply; it was not published", null);
    }
}
