package dev.sopline.gateway.web;

import dev.sopline.schemas.command.ErrorCodes;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** Errors raised outside Spring MVC (by the servlet container) answer JSON too, never an HTML page. */
@RestController
public class JsonErrorController implements ErrorController {

    @RequestMapping("/error")
    ResponseEntity<ErrorBody> error(HttpServletRequest request) {
        Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
        int status = code instanceof Integer value ? value : 500;
        String error = switch (status) {
            case 400 -> ErrorCodes.INVALID_PAYLOAD;
            case 401 -> ErrorCodes.UNAUTHORIZED;
            case 404 -> ErrorCodes.NOT_FOUND;
            case 405 -> "method_not_allowed";
            case 413 -> ErrorCodes.PAYLOAD_TOO_LARGE;
            case 415 -> "unsupported_media_type";
            default -> status >= 500 ? "internal" : "invalid_request";
        };
        return ResponseEntity.status(status).body(ErrorBody.of(error, HttpStatus.valueOf(status).getReasonPhrase()));
    }
}
