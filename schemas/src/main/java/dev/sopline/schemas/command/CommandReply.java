package dev.sopline.schemas.command;

import com.fasterxml.jackson.annotation.JsonIgnore;
import dev.sopline.schemas.validation.Violation;
import java.util.List;

/**
 * The engine's answer to a command, read by the gateway that waits for it. The HTTP status and error code are
 * decided by the engine, the only judge of state.
 *
 * @param commandId the command answered
 * @param status HTTP status the gateway answers with
 * @param error error code on a rejection, null on success
 * @param message a sentence for people on a rejection
 * @param details validation details of {@code invalid_inputs} and {@code invalid_outputs}
 * @param body the response body on success
 */
public record CommandReply(String commandId, int status, String error, String message, List<Violation> details, Object body) {

    public static CommandReply ok(String commandId, int status, Object body) {
        return new CommandReply(commandId, status, null, null, null, body);
    }

    public static CommandReply rejected(String commandId, int status, String error, String message) {
        return new CommandReply(commandId, status, error, message, null, null);
    }

    public static CommandReply invalid(String commandId, String error, String message, List<Violation> details) {
        return new CommandReply(commandId, 422, error, message, List.copyOf(details), null);
    }

    /** The same answer to another command: a repeated idempotent request. */
    public CommandReply answering(String otherCommandId) {
        return new CommandReply(otherCommandId, status, error, message, details, body);
    }

    @JsonIgnore
    public boolean isSuccess() {
        return error == null;
    }
}
