package dev.sopline.gateway.mcp;

import dev.sopline.gateway.web.ErrorResponses;
import jakarta.servlet.ServletConfig;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

/**
 * The MCP endpoint, with the API's error bodies. The MCP SDK's servlet answers a request it cannot read (not JSON,
 * a batch, another content type) by serialising its exception, stack trace, class names and JVM version included.
 * This servlet runs the SDK's and replaces such an answer with the API's JSON error of the same status (CONTRACT
 * section 8: an error code, never a stack trace); answers to readable requests, errors of tools included, pass as
 * they are. Only a body the SDK writes under an error status is held, to be read: a result goes to the client as it
 * is written, never held whole a second time.
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
        ErrorBodyHeld answer = new ErrorBodyHeld(response);
        sdk.service((jakarta.servlet.ServletRequest) request, (jakarta.servlet.ServletResponse) answer);
        byte[] error = answer.heldBody();
        if (error == null) {
            return;
        }
        int status = answer.getStatus();
        if (new String(error, StandardCharsets.UTF_8).contains("\"stackTrace\"")) {
            ErrorResponses.write(response, status, status == 415 ? "unsupported_media_type" : status == 405 ? "method_not_allowed" : "invalid_request",
                    status == 415 ? "Expected Content-Type application/json" : "Expected one JSON-RPC request as JSON");
            return;
        }
        response.getOutputStream().write(error);
    }

    @Override
    public void destroy() {
        sdk.destroy();
        super.destroy();
    }

    /**
     * Holds the body of an answer whose status is an error when its writing starts (the SDK sets the status first),
     * and passes any other body through.
     */
    private static final class ErrorBodyHeld extends HttpServletResponseWrapper {

        private ByteArrayOutputStream held;
        private PrintWriter writer;
        private ServletOutputStream stream;

        ErrorBodyHeld(HttpServletResponse response) {
            super(response);
        }

        private boolean holds() {
            if (held == null && getStatus() >= 400) {
                held = new ByteArrayOutputStream();
            }
            return held != null;
        }

        @Override
        public PrintWriter getWriter() throws IOException {
            if (!holds()) {
                return super.getWriter();
            }
            if (writer == null) {
                String encoding = getCharacterEncoding();
                writer = new PrintWriter(new OutputStreamWriter(held, encoding == null ? StandardCharsets.UTF_8 : Charset.forName(encoding)));
            }
            return writer;
        }

        @Override
        public ServletOutputStream getOutputStream() throws IOException {
            if (!holds()) {
                return super.getOutputStream();
            }
            if (stream == null) {
                stream = new ServletOutputStream() {
                    @Override
                    public void write(int b) {
                        held.write(b);
                    }

                    @Override
                    public void write(byte[] bytes, int offset, int length) {
                        held.write(bytes, offset, length);
                    }

                    @Override
                    public boolean isReady() {
                        return true;
                    }

                    @Override
                    public void setWriteListener(WriteListener listener) {
                        throw new UnsupportedOperationException("Held error bodies are written blocking");
                    }
                };
            }
            return stream;
        }

        @Override
        public void flushBuffer() throws IOException {
            if (held == null) {
                super.flushBuffer();
            }
        }

        /** The error body written, or null when the body went to the client. */
        byte[] heldBody() {
            if (held == null) {
                return null;
            }
            if (writer != null) {
                writer.flush();
            }
            return held.toByteArray();
        }
    }
}
