package dev.sopline.gateway.web;

import dev.sopline.schemas.validation.Violation;
import java.util.List;

/** A client-facing refusal: status, code and message, rendered as an {@link ErrorBody}. */
public class ApiException extends RuntimeException {

    private final int status;
    private final String code;
    private final List<Violation> details;

    public ApiException(int status, String code, String message) {
        this(status, code, message, null);
    }

    public ApiException(int status, String code, String message, List<Violation> details) {
        super(message);
        this.status = status;
        this.code = code;
        this.details = details;
    }

    public int status() {
        return status;
    }

    public String code() {
        return code;
    }

    public List<Violation> details() {
        return details;
    }

    public ErrorBody body() {
        return new ErrorBody(code, getMessage(), details);
    }
}
