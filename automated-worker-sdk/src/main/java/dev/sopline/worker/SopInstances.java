package dev.sopline.worker;

import dev.sopline.schemas.json.Json;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import tools.jackson.databind.JsonNode;

/**
 * Instances through the gateway's HTTP API, for the operations a worker's team runs beside its workers: today the
 * retry of a failed instance (a worker bug fixed, a third party back). The token needs the role {@code operator}.
 *
 * <pre>{@code
 * SopInstances instances = SopInstances.http("http://localhost:8080", token);
 * Map<String, Object> instance = instances.retry("expense-approval", instanceId);
 * }</pre>
 */
public final class SopInstances {

    private final String baseUrl;
    private final String token;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private SopInstances(String baseUrl, String token) {
        this.baseUrl = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
        this.token = Objects.requireNonNull(token, "token");
    }

    public static SopInstances http(String gatewayUrl, String token) {
        return new SopInstances(gatewayUrl, token);
    }

    /**
     * {@code POST /sop/:process/:id/retry}: the failed step starts a new attempt and the instance runs again.
     *
     * @return the instance as the gateway answers it
     * @throws Refused when the gateway refuses, with its error code: {@code invalid_transition} (the instance is not
     *     failed), {@code not_found}, {@code forbidden} (the token's role is below operator)
     */
    public Map<String, Object> retry(String process, String instanceId) throws IOException, InterruptedException {
        String path = "/sop/%s/%s/retry".formatted(segment(process), segment(instanceId));
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(baseUrl + path))
                .header("X-SOP-Token", token)
                .timeout(Duration.ofSeconds(30))
                .POST(HttpRequest.BodyPublishers.noBody())
                .build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw Refused.of(response);
        }
        return Json.mapper().readValue(response.body(), Json.mapper().getTypeFactory().constructMapType(Map.class, String.class, Object.class));
    }

    private static String segment(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /** The gateway's answer to a call it refused: its HTTP status and the error code of its JSON body. */
    public static final class Refused extends RuntimeException {

        private final int status;
        private final String error;

        private Refused(int status, String error, String message) {
            super("The gateway answered %d %s: %s".formatted(status, error, message));
            this.status = status;
            this.error = error;
        }

        static Refused of(HttpResponse<String> response) {
            String error = "";
            String message = response.body();
            try {
                JsonNode body = Json.mapper().readTree(response.body());
                error = body.path("error").asString("");
                message = body.path("message").asString(message);
            } catch (RuntimeException notJson) {
                // Not the API's JSON (a proxy's page): the status and the raw body say what there is.
            }
            return new Refused(response.statusCode(), error, message);
        }

        public int status() {
            return status;
        }

        public String error() {
            return error;
        }
    }
}
