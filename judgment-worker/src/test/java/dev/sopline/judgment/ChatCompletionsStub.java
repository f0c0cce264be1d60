package dev.sopline.judgment;

import com.sun.net.httpserver.HttpServer;
import dev.sopline.schemas.json.Json;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;

/**
 * An OpenAI-compatible server on a free local port, speaking chat completions: it records every request and answers
 * with what the test's responder says the model writes. The {@code openai} provider reaches it through the real
 * langchain4j client.
 */
final class ChatCompletionsStub implements AutoCloseable {

    private final HttpServer server;
    private final List<JsonNode> requests = new CopyOnWriteArrayList<>();
    private volatile Function<JsonNode, String> responder = request -> "";
    private volatile int status = 200;

    ChatCompletionsStub() {
        try {
            server = HttpServer.create(new InetSocketAddress("localhost", 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/v1/chat/completions", exchange -> {
            JsonNode request = Json.mapper().readTree(exchange.getRequestBody().readAllBytes());
            requests.add(request);
            String body = status == 200
                    ? Json.mapper().writeValueAsString(Map.of(
                            "id", "chatcmpl-1", "object", "chat.completion", "created", 1, "model", request.path("model").asString(),
                            "choices", List.of(Map.of("index", 0, "finish_reason", "stop",
                                    "message", Map.of("role", "assistant", "content", responder.apply(request)))),
                            "usage", Map.of("prompt_tokens", 10, "completion_tokens", 5, "total_tokens", 15)))
                    : "{\"error\":{\"message\":\"boom\",\"type\":\"server_error\"}}";
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        });
        server.start();
    }

    /** The {@code openai} agent pointed at this server. */
    JudgmentAgent agent() {
        return AgentProviders.fromEnvironment(Map.of(
                "SOP_LLM_PROVIDER", "openai",
                "SOP_LLM_BASE_URL", "http://localhost:" + server.getAddress().getPort() + "/v1",
                "SOP_LLM_MODEL", "gpt-test",
                "OPENAI_API_KEY", "test-key"));
    }

    void answer(Function<JsonNode, String> newResponder) {
        responder = newResponder;
    }

    void answer(String... answers) {
        responder = request -> answers[Math.min(requests.size(), answers.length) - 1];
    }

    void fail(int newStatus) {
        status = newStatus;
    }

    List<JsonNode> requests() {
        return List.copyOf(requests);
    }

    /** The text of the request's messages of one role, in order. */
    static List<String> messages(JsonNode request, String role) {
        return request.path("messages").valueStream().filter(message -> message.path("role").asString().equals(role))
                .map(message -> message.path("content").isString() ? message.path("content").asString() : message.path("content").toString())
                .toList();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
