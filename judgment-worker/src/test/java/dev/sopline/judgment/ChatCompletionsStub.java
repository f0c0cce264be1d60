package dev.sopline.judgment;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.sopline.schemas.json.Json;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;

/**
 * An OpenAI-compatible server on a free local port, speaking chat completions: it records every request and answers
 * with what the test's responder says the model writes. The {@code openai} provider reaches it through the real
 * langchain4j client.
 */
final class ChatCompletionsStub implements AutoCloseable {

    static final String API_KEY = "test-key-0123";

    private final HttpServer server;
    private final List<JsonNode> requests = new CopyOnWriteArrayList<>();
    private final ExecutorService exchanges = Executors.newCachedThreadPool();
    private volatile Function<JsonNode, String> responder = request -> "";
    private volatile int status = 200;
    private volatile boolean echoInErrors;
    private volatile boolean trickle;

    ChatCompletionsStub() {
        try {
            server = HttpServer.create(new InetSocketAddress("localhost", 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/v1/chat/completions", exchange -> {
            JsonNode request = Json.mapper().readTree(exchange.getRequestBody().readAllBytes());
            requests.add(request);
            if (trickle) {
                trickleForever(exchange);
                return;
            }
            String error = echoInErrors
                    ? "boom for " + exchange.getRequestHeaders().getFirst("Authorization") + " on " + messages(request, "user")
                    : "boom";
            String body = status == 200
                    ? Json.mapper().writeValueAsString(Map.of(
                            "id", "chatcmpl-1", "object", "chat.completion", "created", 1, "model", request.path("model").asString(),
                            "choices", List.of(Map.of("index", 0, "finish_reason", "stop",
                                    "message", Map.of("role", "assistant", "content", responder.apply(request)))),
                            "usage", Map.of("prompt_tokens", 10, "completion_tokens", 5, "total_tokens", 15)))
                    : Json.mapper().writeValueAsString(Map.of("error", Map.of("message", error, "type", "server_error")));
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        });
        server.setExecutor(exchanges);
        server.start();
    }

    /** Headers at once, then a space every 100 ms, never the end: a request timeout that counts to the headers never fires. */
    private static void trickleForever(HttpExchange exchange) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, 0);
        try (OutputStream out = exchange.getResponseBody()) {
            while (true) {
                out.write(' ');
                out.flush();
                Thread.sleep(100);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The {@code openai} agent pointed at this server. */
    JudgmentAgent agent() {
        return agent(Map.of());
    }

    /** The {@code openai} agent pointed at this server, with more settings. */
    JudgmentAgent agent(Map<String, String> settings) {
        Map<String, String> env = new HashMap<>(settings);
        env.putAll(Map.of(
                "SOP_LLM_PROVIDER", "openai",
                "SOP_LLM_BASE_URL", "http://localhost:" + server.getAddress().getPort() + "/v1",
                "SOP_LLM_MODEL", "gpt-test",
                "OPENAI_API_KEY", API_KEY));
        return AgentProviders.fromEnvironment(env);
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

    /** Fails as a careless server might: its error message quotes the request's key and the case it was sent. */
    void failEchoingTheRequest(int newStatus) {
        status = newStatus;
        echoInErrors = true;
    }

    /** Answers every request with a body that never ends. */
    void trickle() {
        trickle = true;
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
        exchanges.shutdownNow();
    }
}
