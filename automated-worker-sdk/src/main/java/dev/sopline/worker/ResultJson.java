package dev.sopline.worker;

import dev.sopline.schemas.command.ErrorCodes;
import dev.sopline.schemas.json.Json;

/**
 * A step's result as JSON. A handler can return outputs that cannot be written (a getter that throws, a map that holds
 * itself); they would fail the same way at every try, so the attempt is reported failed with {@link #UNENCODABLE}
 * instead, and the step's retry policy decides, as for a result too large to send.
 */
final class ResultJson {

    /** The code of an attempt whose outputs could not be written as JSON: the gateway's code for a body that is not JSON. */
    static final String UNENCODABLE = ErrorCodes.INVALID_PAYLOAD;
    private static final int MAX_REASON_CHARS = 300;

    private ResultJson() {}

    static byte[] encode(Object result) throws Unencodable {
        try {
            return Json.mapper().writeValueAsBytes(result);
        } catch (RuntimeException | StackOverflowError e) {
            // A stack overflow is the end of writing a structure that holds itself, not of the worker: the stack unwinds here.
            throw new Unencodable(e);
        }
    }

    /** Outputs that cannot be written as JSON; its message says why, short enough for a step's error. */
    static final class Unencodable extends Exception {
        Unencodable(Throwable cause) {
            super("The step's outputs cannot be written as JSON: " + reason(cause), cause);
        }

        private static String reason(Throwable cause) {
            String text = cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
            String firstLine = text.lines().findFirst().orElse("");
            return firstLine.length() <= MAX_REASON_CHARS ? firstLine : firstLine.substring(0, MAX_REASON_CHARS) + "…";
        }
    }
}
