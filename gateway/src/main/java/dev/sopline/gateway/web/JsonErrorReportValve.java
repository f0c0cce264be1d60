package dev.sopline.gateway.web;

import dev.sopline.schemas.json.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.springframework.http.MediaType;

/**
 * The servlet container's own error page, as JSON: requests Tomcat refuses before any servlet sees them (bad
 * percent-encoding, an encoded {@code /} or {@code \}, a path that escapes the root) are answered with the same
 * {@link ErrorBody} as every other error, never Tomcat's HTML page.
 */
public final class JsonErrorReportValve extends ErrorReportValve {

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        int status = response.getStatus();
        // As the HTML valve: only errors, only when nothing was written yet, and only once.
        if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
            return;
        }
        try {
            response.resetBuffer();
            response.setContentType(MediaType.APPLICATION_JSON_VALUE);
            response.setCharacterEncoding(StandardCharsets.UTF_8.name());
            byte[] body = Json.mapper().writeValueAsBytes(ContainerErrors.bodyFor(status));
            response.getOutputStream().write(body);
            response.finishResponse();
        } catch (IOException | IllegalStateException e) {
            // The connection is gone or the response committed: nothing more can be said.
        }
    }
}
