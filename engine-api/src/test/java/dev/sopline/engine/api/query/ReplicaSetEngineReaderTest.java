package dev.sopline.engine.api.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import dev.sopline.engine.api.view.ProcessVersions;
import dev.sopline.schemas.definition.ProcessDefinition;
import dev.sopline.schemas.definition.ProcessFiles;
import dev.sopline.schemas.instance.InstanceState;
import dev.sopline.schemas.instance.InstanceView;
import dev.sopline.schemas.json.Json;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A gateway's reads through several engine replicas, against stand-ins for the replicas' query endpoints. */
class ReplicaSetEngineReaderTest {

    private static final EngineQueryKey KEY = EngineQueryKey.of("a secret of the engines".getBytes(StandardCharsets.UTF_8));

    private final List<HttpServer> servers = new ArrayList<>();
    private final List<ReplicaSetEngineReader> readers = new ArrayList<>();

    @AfterEach
    void stop() {
        readers.forEach(ReplicaSetEngineReader::close);
        servers.forEach(server -> server.stop(0));
    }

    @Test
    void shouldReadThroughAnotherReplicaWhileTheFirstIsGone() throws IOException {
        String answering = replica(Map.of("/query/processes", "[]"), Map.of());

        ReplicaSetEngineReader reader = reader(List.of("http://localhost:" + closedPort(), answering));

        assertThat(reader.processes("default")).isEmpty();
    }

    @Test
    void shouldSkipAReplicaThatCannotServeYetAndPassOnTheStaleMark() throws IOException {
        InstanceView view = new InstanceView("01J0000000000000000000000A", "default", "p", "1", InstanceState.RUNNING, Map.of(), Map.of(),
                null, Instant.parse("2026-01-01T00:00:00Z"), null, List.of());
        String restoring = replica(Map.of(), Map.of());
        String standby = replica(Map.of("/query/instance", Json.mapper().writeValueAsString(view)), Map.of(Answer.STALE_HEADER, "true"));

        Answer<InstanceView> answer = reader(List.of(restoring, standby)).instanceAnswer("default", view.id()).orElseThrow();

        assertThat(answer.value().id()).isEqualTo(view.id());
        assertThat(answer.stale()).isTrue();
    }

    @Test
    void shouldBeUnavailableWhenNoReplicaCanServe() throws IOException {
        ReplicaSetEngineReader reader = reader(List.of(replica(Map.of(), Map.of()), "http://localhost:" + closedPort()));

        assertThatThrownBy(() -> reader.processes("default")).isInstanceOf(StateUnavailableException.class);
    }

    @Test
    void shouldLearnTheReplicasTheGroupNames() throws IOException {
        String other = replica(Map.of("/query/processes", "[]"), Map.of());
        String otherEndpoint = other.substring("http://".length());
        String configured = replica(Map.of("/query/replicas", "[\"" + otherEndpoint + "\"]"), Map.of());

        ReplicaSetEngineReader reader = reader(List.of(configured));

        await().atMost(Duration.ofSeconds(10)).until(() -> reader.baseUrls().contains("http://" + otherEndpoint));
        assertThat(reader.processes("default")).as("the configured replica cannot serve; the discovered one does").isEmpty();
    }

    @Test
    void shouldAskForTheLatestVersionAloneAndAskAReplicaThatDoesNotKnowThatQueryForTheWholeProcess() throws IOException {
        String latestAlone = Json.mapper().writeValueAsString(published("3.0"));
        String wholeProcess = Json.mapper().writeValueAsString(new ProcessVersions("default", "p",
                Map.of("1.0", published("1.0"), "2.0", published("2.0")), ProcessVersions.ONE_VERSION_FORMAT, null));
        String current = replica(Map.of("/query/latest-version", latestAlone), Map.of());
        String earlier = replica(Map.of("/query/process", wholeProcess), Map.of(), 404);

        assertThat(reader(List.of(current)).latestVersion("default", "p")).map(latest -> latest.definition().version()).contains("3.0");
        assertThat(reader(List.of(earlier)).latestVersion("default", "p")).map(latest -> latest.definition().version()).contains("2.0");
        assertThat(reader(List.of(replica(Map.of(), Map.of(), 404))).latestVersion("default", "p")).isEmpty();
    }

    @Test
    void shouldTakeACommaSeparatedListOfUrls() {
        assertThat(ReplicaSetEngineReader.parse(" http://engine-1:7070, ,http://engine-2:7070 "))
                .containsExactly("http://engine-1:7070", "http://engine-2:7070");
        assertThat(ReplicaSetEngineReader.parse(null)).isEmpty();
    }

    private ReplicaSetEngineReader reader(List<String> urls) {
        ReplicaSetEngineReader reader = new ReplicaSetEngineReader(urls, () -> KEY);
        readers.add(reader);
        return reader;
    }

    /** A replica's query endpoint answering the given paths with 200 and anything else with 503, as one still restoring. */
    private String replica(Map<String, String> answers, Map<String, String> headers) throws IOException {
        return replica(answers, headers, 503);
    }

    /** A replica's query endpoint answering the given paths with 200 and anything else with the status given. */
    private String replica(Map<String, String> answers, Map<String, String> headers, int otherwise) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("localhost", 0), 0);
        server.createContext("/", exchange -> {
            try (exchange) {
                if (!KEY.isShownBy(exchange.getRequestHeaders().getFirst(EngineQueryKey.HEADER))) {
                    exchange.sendResponseHeaders(401, -1); // as the engine's query server: every caller shows the key
                    return;
                }
                String body = answers.get(exchange.getRequestURI().getPath());
                byte[] bytes = (body == null ? "{\"error\":\"" + (otherwise == 404 ? "not_found" : "unavailable") + "\"}" : body)
                        .getBytes(StandardCharsets.UTF_8);
                if (body != null) {
                    headers.forEach((name, value) -> exchange.getResponseHeaders().set(name, value));
                }
                exchange.sendResponseHeaders(body == null ? otherwise : 200, bytes.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(bytes);
                }
            }
        });
        server.start();
        servers.add(server);
        return "http://localhost:" + server.getAddress().getPort();
    }

    private static ProcessVersions.PublishedVersion published(String version) {
        String yaml = """
                engine: "0.1"
                process:
                  name: p
                  version: "%s"
                  steps:
                    - id: check
                      type: form
                      outputs:
                        - name: ok
                          type: boolean
                """.formatted(version);
        ProcessDefinition definition = ((ProcessFiles.Loaded) ProcessFiles.load(yaml.getBytes(StandardCharsets.UTF_8))).file().process();
        return new ProcessVersions.PublishedVersion(definition, yaml, Instant.parse("2026-01-01T00:00:00Z"));
    }

    private static int closedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
