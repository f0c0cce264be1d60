package dev.sopline.engine.api.query;

import dev.sopline.schemas.json.Json;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import tools.jackson.core.type.TypeReference;

/** GETs against another replica's query endpoints. A replica that cannot answer makes the query unavailable (503). */
public final class ReplicaClient {

    /** A replica that is gone refuses at once on most networks; one that is unreachable must not hold a read past the 2 s a failover may take. */
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(1);
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(CONNECT_TIMEOUT).build();
    private final Supplier<EngineQueryKey> key;

    /** @param key shown to every replica asked ({@link EngineQueryKey#HEADER}); asked for at each query, so it may be learnt late */
    public ReplicaClient(Supplier<EngineQueryKey> key) {
        this.key = key;
    }

    public <T> Optional<T> get(String baseUrl, String path, Map<String, Object> parameters, TypeReference<T> type) {
        return answer(baseUrl, path, parameters, type).map(Answer::value);
    }

    /** The answer and whether the replica marked it stale ({@link Answer#STALE_HEADER}); empty on 404. */
    public <T> Optional<Answer<T>> answer(String baseUrl, String path, Map<String, Object> parameters, TypeReference<T> type) {
        URI uri = URI.create(baseUrl + path + "?" + QueryParameters.encode(parameters));
        try {
            HttpResponse<byte[]> response = http.send(HttpRequest.newBuilder(uri).timeout(TIMEOUT).header(EngineQueryKey.HEADER, key.get().value()).GET().build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            if (response.statusCode() == 404) {
                return Optional.empty();
            }
            if (response.statusCode() != 200) {
                throw new StateUnavailableException("Expected replica " + baseUrl + " to answer " + path + ", but it answered " + response.statusCode());
            }
            boolean stale = response.headers().firstValue(Answer.STALE_HEADER).map(Boolean::parseBoolean).orElse(false);
            return Optional.of(new Answer<>(Json.mapper().readValue(response.body(), type), stale));
        } catch (IOException e) {
            throw new StateUnavailableException("Expected replica " + baseUrl + " to answer " + path + ", but " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StateUnavailableException("Interrupted while asking replica " + baseUrl);
        }
    }
}
