package dev.sopline.engine.query;

import dev.sopline.schemas.json.Json;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import tools.jackson.core.type.TypeReference;

/** GETs against another replica's query endpoints. A replica that cannot answer makes the query unavailable (503). */
final class ReplicaClient {

    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();

    <T> Optional<T> get(String baseUrl, String path, Map<String, Object> parameters, TypeReference<T> type) {
        URI uri = URI.create(baseUrl + path + "?" + QueryParameters.encode(parameters));
        try {
            HttpResponse<byte[]> response = http.send(HttpRequest.newBuilder(uri).timeout(TIMEOUT).GET().build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            if (response.statusCode() == 404) {
                return Optional.empty();
            }
            if (response.statusCode() != 200) {
                throw new InvalidStateStoreException("Expected replica " + baseUrl + " to answer " + path + ", but it answered " + response.statusCode());
            }
            return Optional.of(Json.mapper().readValue(response.body(), type));
        } catch (IOException e) {
            throw new InvalidStateStoreException("Expected replica " + baseUrl + " to answer " + path + ", but " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InvalidStateStoreException("Interrupted while asking replica " + baseUrl);
        }
    }
}
