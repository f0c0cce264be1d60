package dev.sopline.testing;

import dev.sopline.schemas.json.Json;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import tools.jackson.databind.JsonNode;

/** A plain HTTP client for the gateway, as a script or an agent would use it. */
public final class SopApi {

    private final HttpClient client = HttpClient.newHttpClient();
    private final String base;
    private final String token;

    public SopApi(String base, String token) {
        this.base = base;
        this.token = token;
    }

    public SopApi withToken(String other) {
        return new SopApi(base, other);
    }

    public record Response(int status, String body, java.net.http.HttpHeaders headers) {
        public JsonNode json() {
            return Json.mapper().readTree(body);
        }

        public String header(String name) {
            return headers.firstValue(name).orElse(null);
        }
    }

    public Response get(String path) {
        return send(request(path).GET());
    }

    /** A GET with headers of its own, beside the token if this client has one. */
    public Response getWith(String path, Map<String, String> headers) {
        HttpRequest.Builder builder = request(path).GET();
        headers.forEach(builder::header);
        return send(builder);
    }

    public Response delete(String path) {
        return send(request(path).DELETE());
    }

    public Response post(String path, Object body) {
        return postRaw(path, Json.mapper().writeValueAsString(body), Map.of());
    }

    public Response postRaw(String path, String body, Map<String, String> headers) {
        HttpRequest.Builder builder = request(path).POST(HttpRequest.BodyPublishers.ofString(body));
        if (!headers.containsKey("Content-Type")) {
            builder.header("Content-Type", "application/json");
        }
        headers.forEach(builder::header);
        return send(builder);
    }

    public Response register(String yaml) {
        String boundary = "----sop" + UUID.randomUUID();
        String body = "--" + boundary + "\r\n"
                + "Content-Disposition: form-data; name=\"file\"; filename=\"process.yaml\"\r\n"
                + "Content-Type: application/yaml\r\n\r\n"
                + yaml + "\r\n--" + boundary + "--\r\n";
        return send(request("/sop/processes/register")
                .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8)));
    }

    public Response start(String process, Map<String, Object> inputs) {
        return post("/sop/" + process + "/start", Map.of("inputs", inputs));
    }

    public Response submit(String process, String id, String step, Map<String, Object> outputs) {
        return post("/sop/" + process + "/" + id + "/steps/" + step + "/submit", Map.of("outputs", outputs));
    }

    private HttpRequest.Builder request(String path) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(base + path));
        if (token != null) {
            builder.header("X-SOP-Token", token);
        }
        return builder;
    }

    private Response send(HttpRequest.Builder builder) {
        try {
            HttpResponse<String> response = client.send(builder.build(), HttpResponse.BodyHandlers.ofString());
            return new Response(response.statusCode(), response.body(), response.headers());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public static List<String> texts(JsonNode array, String field) {
        return java.util.stream.StreamSupport.stream(array.spliterator(), false).map(node -> node.path(field).asString()).toList();
    }
}
