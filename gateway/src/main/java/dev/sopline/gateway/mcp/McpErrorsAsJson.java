package dev.sopline.gateway.mcp;

import dev.sopline.gateway.web.ErrorResponses;
import jakarta.servlet.ServletConfig;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.springframework.web.util.ContentCachingResponseWrapper;

/**
 * The MCP endpoint, with the API's error bodies. The MCP SDK's servlet answers a request it cannot read (not JSON,
 * a batch, another content type) by serialising its exception, stack trace, class names and JVM version included.
 * This servlet runs the SDK's and replaces such an answer with the API's JSON error of the same status (CONTRACT
 * section 8: an error code, never a stack trace); answers to readable requests, errors of tools included, pass as
 * they are.
 */
final class McpErrorsAsJson extends HttpServlet {

    private final HttpServlet sdk;

    McpErrorsAsJson(HttpServlet sdk) {
        this.sdk = sdk;
    }

    @Override
    public void init(ServletConfig config) throws ServletException {
        super.init(config);
        sdk.init(config);
    }

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws ServletException, IOException {
        ContentCachingResponseWrapper answer = new ContentCachingResponseWrapper(response);
        sdk.service((jakarta.servlet.ServletRequest) request, (jakarta.servlet.ServletResponse) answer);
        if (answer.getStatus() >= 400 && new String(answer.getContentAsByteArray(), StandardCharsets.UTF_8).contains("\"stackTrace\"")) {
            answer.resetBuffer();
            int status = answer.getStatus();
            ErrorResponses.write(response, status, status == 415 ? "unsupported_media_type" : status == 405 ? "method_not_allowed" : "invalid_request",
                    status == 415 ? "Expected Content-Type application/json" : "Expected one JSON-RPC request as JSON");
            return;
        }
        answer.copyBodyToResponse();
    }

    @Override
    public void destroy() {
        sdk.destroy();
        super.destroy();
    }
}
