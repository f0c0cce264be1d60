package dev.sopline.gateway.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

/** What reaches the client of {@code /mcp} when the SDK answers: a result as it is written, an exception as the API's error. */
class McpErrorsAsJsonTest {

    @Test
    void shouldPassAResultToTheClientAsTheSdkWritesItWithoutHoldingIt() throws Exception {
        MockHttpServletResponse client = new MockHttpServletResponse();
        AtomicReference<String> seenWhileWriting = new AtomicReference<>();
        McpErrorsAsJson servlet = new McpErrorsAsJson(sdk(200, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}", client, seenWhileWriting));

        servlet.service(new MockHttpServletRequest("POST", "/mcp"), client);

        assertThat(seenWhileWriting.get()).isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}");
        assertThat(client.getStatus()).isEqualTo(200);
        assertThat(client.getContentAsString()).isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}");
    }

    @Test
    void shouldAnswerTheSdksSerialisedExceptionWithTheApisErrorBody() throws Exception {
        MockHttpServletResponse client = new MockHttpServletResponse();
        McpErrorsAsJson servlet = new McpErrorsAsJson(sdk(400, "{\"code\":-32600,\"stackTrace\":[{\"className\":\"io.modelcontextprotocol.X\"}]}",
                client, new AtomicReference<>()));

        servlet.service(new MockHttpServletRequest("POST", "/mcp"), client);

        assertThat(client.getStatus()).isEqualTo(400);
        assertThat(client.getContentAsString()).contains("\"error\":\"invalid_request\"").doesNotContain("stackTrace");
    }

    @Test
    void shouldPassAnErrorWithoutAStackTraceAsItIs() throws Exception {
        MockHttpServletResponse client = new MockHttpServletResponse();
        McpErrorsAsJson servlet = new McpErrorsAsJson(sdk(400, "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32602}}", client,
                new AtomicReference<>()));

        servlet.service(new MockHttpServletRequest("POST", "/mcp"), client);

        assertThat(client.getStatus()).isEqualTo(400);
        assertThat(client.getContentAsString()).isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32602}}");
    }

    /** Answers as the SDK's transport does (status, then the body through the writer), noting what the client has meanwhile. */
    private static HttpServlet sdk(int status, String body, MockHttpServletResponse client, AtomicReference<String> seenWhileWriting) {
        return new HttpServlet() {
            @Override
            protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
                response.setContentType("application/json");
                response.setCharacterEncoding("UTF-8");
                response.setStatus(status);
                PrintWriter writer = response.getWriter();
                writer.write(body);
                writer.flush();
                seenWhileWriting.set(client.getContentAsString());
            }
        };
    }
}
