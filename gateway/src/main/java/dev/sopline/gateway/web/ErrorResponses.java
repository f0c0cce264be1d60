package dev.sopline.gateway.web;

import dev.sopline.schemas.json.Json;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.http.MediaType;

/** Writes an {@link ErrorBody} from servlet filters, which run before Spring MVC's error handling. */
public final class ErrorResponses {

    private ErrorResponses() {}

    public static void write(HttpServletResponse response, int status, String code, String message) throws IOException {
        response.setStatus(status);
        response.setContentType(MediaType.APPLICATION_JSON_VALUE);
        response.getOutputStream().write(Json.mapper().writeValueAsBytes(ErrorBody.of(code, message)));
    }
}
