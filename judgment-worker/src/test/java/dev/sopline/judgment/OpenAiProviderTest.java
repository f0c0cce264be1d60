package dev.sopline.judgment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.sopline.schemas.definition.FieldType;
import dev.sopline.schemas.definition.OutputDeclaration;
import dev.sopline.schemas.json.Json;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** The {@code openai} provider through the real langchain4j client, against a server speaking chat completions. */
class OpenAiProviderTest {

    private static final JudgmentRequest REQUEST = new JudgmentRequest("support", "Route the ticket", "Pick the team",
            Map.of("ticket", "charged twice"),
            List.of(new OutputDeclaration("team", FieldType.ENUM, List.of("billing", "shipping"), null, null)));

    private HttpServer server;
    private final AtomicReference<String> answer = new AtomicReference<>();
    private final AtomicReference<Integer> status = new AtomicReference<>(200);
    private final AtomicReference<JsonNode> lastRequest = new AtomicReference<>();
    private JudgmentAgent agent;

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("localhost", 0), 0);
        server.createContext("/v1/chat/completions", exchange -> {
            lastRequest.set(Json.mapper().readTree(exchange.getRequestBody().readAllBytes()));
            String body = status.get() == 200
                    ? Json.mapper().writeValueAsString(Map.of(
                            "id", "chatcmpl-1", "object", "chat.completion", "created", 1, "model", "gpt-test",
                            "choices", List.of(Map.of("index", 0, "finish_reason", "stop",
                                    "message", Map.of("role", "assistant", "content", answer.get()))),
                            "usage", Map.of("prompt_tokens", 10, "completion_tokens", 5, "total_tokens", 15)))
                    : "{\"error\":{\"message\":\"boom\",\"type\":\"server_error\"}}";
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(status.get(), bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        });
        server.start();
        agent = AgentProviders.fromEnvironment(Map.of(
                "SOP_LLM_PROVIDER", "openai",
                "SOP_LLM_BASE_URL", "http://localhost:" + server.getAddress().getPort() + "/v1",
                "SOP_LLM_MODEL", "gpt-test",
                "OPENAI_API_KEY", "test-key"));
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    @Test
    void shouldReturnOutputsAndConfidenceWhenTheModelAnswersWell() throws Exception {
        answer.set("{\"outputs\": {\"team\": \"billing\"}, \"confidence\": 0.92, \"rationale\": \"A double charge is a billing matter.\"}");

        AgentAnswer decided = agent.decide(REQUEST);

        assertThat(decided.outputs()).isEqualTo(Map.of("team", "billing"));
        assertThat(decided.confidence()).isEqualTo(0.92);
        assertThat(decided.rationale()).contains("billing matter");
        assertThat(decided.model()).isEqualTo("openai/gpt-test");
        JsonNode sent = lastRequest.get();
        assertThat(sent.path("model").asString()).isEqualTo("gpt-test");
        assertThat(sent.path("response_format").path("type").asString()).isEqualTo("json_schema");
        assertThat(sent.toString()).contains("\"billing\"", "\"shipping\"");
    }

    @Test
    void shouldPassALowConfidenceOnSoTheEngineEscalates() throws Exception {
        answer.set("```json\n{\"outputs\": {\"team\": \"shipping\"}, \"confidence\": 0.31, \"rationale\": \"Unclear.\"}\n```");

        assertThat(agent.decide(REQUEST).confidence()).isEqualTo(0.31);
    }

    @Test
    void shouldBeUndecidableWhenTheAnswerIsGarbage() {
        answer.set("I think it is probably billing, but who knows.");

        assertThatThrownBy(() -> agent.decide(REQUEST)).isInstanceOf(UndecidableException.class);
    }

    @Test
    void shouldBeUndecidableWhenTheServerFails() {
        status.set(500);

        assertThatThrownBy(() -> agent.decide(REQUEST)).isInstanceOf(UndecidableException.class);
    }
}
