package dev.sopline.engine.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sopline.engine.api.query.EngineQueryKey;
import dev.sopline.engine.decision.CallbackIds;
import dev.sopline.engine.runtime.Engine;
import dev.sopline.engine.runtime.EngineSettings;
import dev.sopline.engine.topology.EngineConfig;
import dev.sopline.engine.topology.EngineTopology;
import dev.sopline.testing.SharedKafka;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The engine's query endpoints answer every error over HTTP, as a gateway or another replica sees it. */
class QueryServerErrorsIT {

    private static final EngineQueryKey KEY = EngineQueryKey.of(new byte[32]);

    private final HttpClient http = HttpClient.newHttpClient();
    /** The key the running engine's endpoints take; the unstarted topology's server takes {@link #KEY}. */
    private EngineQueryKey key = KEY;
    @TempDir
    Path stateDir;

    @Test
    void shouldAnswer503WithRetryAfterUntilTheStoresAreRestored() throws Exception {
        EngineSettings settings = settings("query-errors-unstarted");
        KafkaStreams notStarted = new KafkaStreams(EngineTopology.build(new EngineConfig(Duration.ofMillis(100), new CallbackIds(new byte[32]))),
                settings.streamsProperties());
        EngineQueries local = new EngineQueries(notStarted);
        try (QueryServer server = QueryServer.start(0, local, local, KEY)) {
            for (String query : new String[] {"/query/processes?workspace=default", "/query/process?workspace=default&name=any",
                    "/query/instance?workspace=default&id=any", "/internal/instance?workspace=default&id=any"}) {
                HttpResponse<String> response = get(server.port(), query);

                assertThat(response.statusCode()).as(query).isEqualTo(503);
                assertThat(response.headers().firstValue("Retry-After")).as(query).hasValue("1");
                assertThat(response.body()).as(query).contains("\"unavailable\"");
            }
            HttpResponse<String> health = http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + server.port() + "/health")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(health.statusCode()).as("health, which needs no key").isEqualTo(503);
            assertThat(health.headers().firstValue("Retry-After")).hasValue("1");
        } finally {
            notStarted.close(Duration.ZERO);
        }
    }

    @Test
    void shouldAnswer400ForABadQueryAnd404ForWhatDoesNotExistAnd401WithoutTheKeyOnceRunning() throws Exception {
        int port = freePort();
        try (Engine engine = Engine.start(settings("query-errors-running").withAdvertisedEndpoint("localhost:" + port))) {
            key = engine.queryKey();
            await().atMost(Duration.ofSeconds(60)).until(() -> get(port, "/query/processes?workspace=default").statusCode() == 200);

            HttpResponse<String> absent = get(port, "/query/instance?workspace=default&id=01ARZ3NDEKTSV4RRFFQ69G5FAV");
            HttpResponse<String> absentProcess = get(port, "/query/process?workspace=default&name=nothing-here");
            HttpResponse<String> badLimit = get(port, "/query/instances?workspace=default&limit=many");
            HttpResponse<String> noWorkspace = get(port, "/query/instance?id=01ARZ3NDEKTSV4RRFFQ69G5FAV");
            HttpResponse<String> post = http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/query/processes"))
                    .header(EngineQueryKey.HEADER, key.value()).POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());

            assertThat(absent.statusCode()).isEqualTo(404);
            assertThat(absent.body()).contains("\"not_found\"");
            assertThat(absentProcess.statusCode()).isEqualTo(404);
            assertThat(badLimit.statusCode()).isEqualTo(400);
            assertThat(badLimit.body()).contains("\"invalid_query\"");
            assertThat(noWorkspace.statusCode()).isEqualTo(400);
            assertThat(post.statusCode()).isEqualTo(405);
            assertThat(get(port, "/query/replicas").body()).contains("localhost:" + port);

            HttpResponse<String> health = http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/health")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(health.statusCode()).isEqualTo(200);
            assertThat(health.body()).doesNotContain("default");

            // The stores answer reads whatever the stream threads do: health asks the engine too (Engine#isHealthy,
            // false while its threads die again and again on one record, or its result relay is down).
            AtomicBoolean progressing = new AtomicBoolean(true);
            try (QueryServer beside = QueryServer.start(0, engine.queries(), engine.queries(), KEY, progressing::get)) {
                assertThat(health(beside.port()).statusCode()).isEqualTo(200);
                progressing.set(false);
                HttpResponse<String> down = health(beside.port());
                assertThat(down.statusCode()).isEqualTo(503);
                assertThat(down.body()).contains("\"DOWN\"", "not_progressing");
            }

            // Every query needs the engines' key: one another secret derives is no better than none.
            for (String query : new String[] {"/query/instances?workspace=default", "/internal/instances?workspace=default&partitions=0",
                    "/query/replicas"}) {
                HttpResponse<String> keyless = http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + query)).build(),
                        HttpResponse.BodyHandlers.ofString());
                HttpResponse<String> wrongKey = http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + query))
                        .header(EngineQueryKey.HEADER, KEY.value()).build(), HttpResponse.BodyHandlers.ofString());

                assertThat(keyless.statusCode()).as(query).isEqualTo(401);
                assertThat(keyless.body()).as(query).contains("\"unauthorized\"").doesNotContain("items");
                assertThat(wrongKey.statusCode()).as("another secret's key: " + query).isEqualTo(401);
            }
        }
    }

    private HttpResponse<String> health(int port) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/health")).build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> get(int port, String pathAndQuery) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + pathAndQuery)).header(EngineQueryKey.HEADER, key.value()).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** An application of its own, so this replica shares no partitions with the other tests' engines. */
    private EngineSettings settings(String applicationId) {
        return EngineSettings.fromEnvironment(Map.of("SOP_ENGINE_APPLICATION_ID", applicationId))
                .withBootstrapServers(SharedKafka.bootstrapServers())
                .withStateDir(stateDir);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
