package dev.sopline.gateway.web;

import dev.sopline.schemas.command.ErrorCodes;
import org.springframework.http.HttpStatus;

/** The error body for a status the servlet container set itself, with the contract's code for it. */
final class ContainerErrors {

    private ContainerErrors() {}

    static ErrorBody bodyFor(int status) {
        String code = switch (status) {
            case 400 -> HttpErrorCodes.INVALID_REQUEST;
            case 401 -> ErrorCodes.UNAUTHORIZED;
            case 403 -> HttpErrorCodes.FORBIDDEN;
            case 404 -> ErrorCodes.NOT_FOUND;
            case 405 -> "method_not_allowed";
            case 408 -> HttpErrorCodes.REQUEST_TIMEOUT;
            case 413 -> ErrorCodes.PAYLOAD_TOO_LARGE;
            case 415 -> "unsupported_media_type";
            case 431 -> HttpErrorCodes.HEADERS_TOO_LARGE;
            case 503 -> ErrorCodes.UNAVAILABLE;
            default -> status >= 500 ? "internal" : HttpErrorCodes.INVALID_REQUEST;
        };
        HttpStatus known = HttpStatus.resolve(status);
        return ErrorBody.of(code, known == null ? "Error " + status : known.getReasonPhrase());
    }
}
