package dev.sopline.gateway.web;

import dev.sopline.schemas.json.Json;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;

/** Writes an {@link ErrorBody} from servlet filters, which run before Spring MVC's error handling. */
public final class ErrorResponses {

    private ErrorResponses() {}

    public static void write(HttpServletResponse response, int status, String code, String message) throws IOException {
        response.setStatus(status);
        response.setContentType(MediaType.APPLICATION_JSON_VALUE);
        response.getOutputStream().write(Json.mapper().writeValueAsBytes(ErrorBody.of(code, message)));
    }

    /**
     * Writes the error of a request refused before anyone read its body. A body that came whole with its head (up to
     * 64 KiB, as most do) is read from what the container holds and the connection kept. Any other is not read: the
     * error is written and the connection closed. Answered in the request's own dispatch, Tomcat reads what is left of
     * the body on the request's thread before it lets the request go, even with {@code Connection: close}, so a body
     * that trickles or never comes held that thread up to the socket timeout for each pause, from clients without a
     * token; a request completed asynchronously on a connection to close is closed unread. A request without a body,
     * or one already async, is answered as {@link #write} does.
     */
    public static void writeUnread(HttpServletRequest request, HttpServletResponse response, int status, String code, String message)
            throws IOException {
        if (!hasBody(request) || request.getDispatcherType() != DispatcherType.REQUEST || request.isAsyncStarted()
                || !request.isAsyncSupported() || arrivedWhole(request)) {
            write(response, status, code, message);
            return;
        }
        AsyncContext async = request.startAsync(request, response);
        try {
            response.setHeader(HttpHeaders.CONNECTION, "close");
            write(response, status, code, message);
        } finally {
            async.complete();
        }
    }

    /**
     * Whether the whole declared body is already in the container's hands, read now so that the connection stays usable:
     * closed with bytes unread, it would be reset, and a client still writing could lose the answer.
     */
    private static boolean arrivedWhole(HttpServletRequest request) {
        long declared = request.getContentLengthLong();
        if (declared <= 0 || declared > ArrivedBytes.MAX_BYTES) {
            return false;
        }
        try {
            return ArrivedBytes.read(request.getInputStream(), (int) declared).complete();
        } catch (IOException | IllegalStateException e) {
            return false; // the body cannot be read here (a reader was taken): left unread, the connection closed
        }
    }

    static boolean hasBody(HttpServletRequest request) {
        return request.getContentLengthLong() > 0 || request.getHeader(HttpHeaders.TRANSFER_ENCODING) != null;
    }
}
