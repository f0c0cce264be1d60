package dev.sopline.engine.handler;

import dev.sopline.engine.decision.Decision;
import dev.sopline.schemas.command.CommandReply;
import dev.sopline.schemas.command.ErrorCodes;
import dev.sopline.schemas.validation.Violation;
import java.util.List;

/** The refusals handlers share, worded "Expected to ..., but ...". */
final class Rejections {

    private Rejections() {}

    static Decision notFound(String commandId, String message) {
        return Decision.reject(CommandReply.rejected(commandId, 404, ErrorCodes.NOT_FOUND, message));
    }

    static Decision instanceNotFound(String commandId, String process, String instanceId) {
        return notFound(commandId, "Expected to find instance '%s' of process '%s', but there is none".formatted(instanceId, process));
    }

    static Decision invalidTransition(String commandId, String message) {
        return Decision.reject(CommandReply.rejected(commandId, 422, ErrorCodes.INVALID_TRANSITION, message));
    }

    static Decision payloadTooLarge(String commandId, String message) {
        return Decision.reject(CommandReply.rejected(commandId, 413, ErrorCodes.PAYLOAD_TOO_LARGE, message));
    }

    static Decision invalid(String commandId, String code, String message, List<Violation> details) {
        return Decision.reject(CommandReply.invalid(commandId, code, message, details));
    }
}
