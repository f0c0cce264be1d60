package dev.sopline.gateway.web;

import dev.sopline.schemas.validation.Violation;
import java.util.List;

/**
 * Every error response: a stable {@code error} code, a sentence for people, and validation details when there are
 * any.
 *
 * @param error the code of the interface's section 7 or the CONTRACT
 * @param message what went wrong and, where it helps, what to do
 * @param details one entry per violation
 */
public record ErrorBody(String error, String message, List<Violation> details) {

    public static ErrorBody of(String error, String message) {
        return new ErrorBody(error, message, null);
    }
}
