package dev.sopline.worker;

import dev.sopline.gateway.GatewayApplication;
import dev.sopline.schemas.json.Json;
import dev.sopline.testing.SharedKafka;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Map;
import java.util.UUID;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;

/** The gateway with its engine on the shared embedded broker, started once per test JVM, driven over HTTP. */
final class Platform {

    static final String TOKEN = "sdk-test-token";
    private static Platform instance;

    private final String baseUrl;
    private final HttpClient http = HttpClient.newHttpClient();

    private Platform(String baseUrl) {
        this.baseUrl = baseUrl;
    }

    static synchronized Platform get() {
        if (instance == null) {
            try {
                ConfigurableApplicationContext context = SpringApplication.run(GatewayApplication.class,
                        "--server.port=0",
                        "--sop.kafka.bootstrap-servers=" + SharedKafka.bootstrapServers(),
                        "--sop.bootstrap-token=" + TOKEN,
                        "--sop.data-dir=" + Files.createTempDirectory("sdk-platform"),
                        "--sop.rate-limit.per-second=1000",
                        "--sop.rate-limit.burst=2000");
                instance = new Platform("http://localhost:" + context.getEnvironment().getProperty("local.server.port"));
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }
        return instance;
    }

    String baseUrl() {
        return baseUrl;
    }

    void register(String yaml) {
        String boundary = "----sdk" + UUID.randomUUID();
        String body = "--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"p.yaml\"\r\n\r\n" + yaml
                + "\r\n--" + boundary + "--\r\n";
        JsonNode reply = send(HttpRequest.newBuilder(URI.create(baseUrl + "/sop/processes/register"))
                .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8)), 201);
        if (!reply.has("version")) {
            throw new IllegalStateException("registration failed: " + reply);
        }
    }

    String start(String process, Map<String, Object> inputs) {
        return send(HttpRequest.newBuilder(URI.create(baseUrl + "/sop/" + process + "/start"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(Json.mapper().writeValueAsBytes(Map.of("inputs", inputs)))), 201)
                .path("id").asString();
    }

    JsonNode instance(String process, String id) {
        return send(HttpRequest.newBuilder(URI.create(baseUrl + "/sop/" + process + "/" + id)).GET(), 200);
    }

    private JsonNode send(HttpRequest.Builder request, int expectedStatus) {
        try {
            HttpResponse<String> response = http.send(request.header("X-SOP-Token", TOKEN).build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != expectedStatus) {
                throw new IllegalStateException("Expected " + expectedStatus + " but got " + response.statusCode() + ": " + response.body());
            }
            return Json.mapper().readTree(response.body());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static String oneStepProcess(String name, String run) {
        return """
                engine: "0.1"
                process:
                  name: %s
                  version: "1.0"
                  inputs:
                    - name: n
                      type: integer
                      required: true
                  steps:
                    - id: work
                      type: automated
                      run: %s
                      inputs:
                        n: "${inputs.n}"
                      outputs:
                        - name: result
                """.formatted(name, run);
    }
}
