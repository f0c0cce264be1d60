package dev.sopline.standalone;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sopline.engine.api.topic.EngineTopics;
import dev.sopline.engine.topology.EngineTopology;
import dev.sopline.example.ExampleWorker;
import dev.sopline.judgment.AgentAnswer;
import dev.sopline.judgment.JudgmentAgent;
import dev.sopline.judgment.JudgmentRequest;
import dev.sopline.judgment.JudgmentWorker;
import dev.sopline.judgment.UndecidableException;
import dev.sopline.schemas.topic.Topics;
import dev.sopline.testing.SopApi;
import dev.sopline.worker.SopWorker;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The README's quickstart against the standalone jar in its own process, with the example worker: killed with
 * SIGKILL half-way, started again on the same data directory, every instance still finishes; the judgments handed out
 * before the kill are decided right after the restart.
 */
class StandaloneQuickstartIT {

    private static final String TOKEN = "standalone-it-token";
    private static final String PROCESS = "expense-approval";

    @Test
    void shouldFinishEveryInstanceWhenKilledAndRestartedOnTheSameDataDirectory(
            @TempDir(cleanup = CleanupMode.ON_SUCCESS) Path workDir) throws Exception {
        // The platform's log goes beside its data directory: both are kept when the test fails.
        Path dataDir = workDir.resolve("data");
        Files.createDirectories(dataDir);
        // The platform's own temporary directory, to see what it leaves there.
        Path temporaryFiles = Files.createDirectories(workDir.resolve("tmp"));
        int httpPort = StandaloneProcess.freePort();
        int kafkaPort = StandaloneProcess.freePort();
        Map<String, String> env = Map.of(
                "SOP_HTTP_PORT", String.valueOf(httpPort),
                "SOP_KAFKA_PORT", String.valueOf(kafkaPort),
                "SOP_KAFKA_CONTROLLER_PORT", String.valueOf(StandaloneProcess.freePort()),
                "SOP_BOOTSTRAP_TOKEN", TOKEN,
                "JAVA_TOOL_OPTIONS", "-Djava.io.tmpdir=" + temporaryFiles);
        String baseUrl = "http://localhost:" + httpPort;
        SopApi api = new SopApi(baseUrl, TOKEN);
        List<String> ids = new ArrayList<>();

        try (StandaloneProcess platform = new StandaloneProcess(dataDir, env)) {
            platform.start();
            Duration firstStart = platform.awaitHealthy(baseUrl, Duration.ofSeconds(120));
            System.out.println("Standalone healthy after " + firstStart.toMillis() + " ms");
            assertThat(api.get("/actuator/prometheus").body())
                    .as("the start command runs the Parallel collector (docs/decisions.md, "
                            + "\"Half the heap was the log cleaner's map; the Parallel collector\")")
                    .contains("id=\"PS Old Gen\"");
            assertThat(partitionsOf("localhost:" + kafkaPort, EngineTopics.COMMANDS, EngineTopics.REPLIES,
                    "sop-engine-" + EngineTopology.INSTANCES_STORE + "-changelog", Topics.EVENTS, Topics.STEP_RESULTS,
                    Topics.automatedSteps(Topics.DEFAULT_NAMESPACE)))
                    .as("the engine's own topics with one partition, the public ones with six (README, \"Configuration\")")
                    .containsExactly(1, 1, 1, 6, 6, 6);

            assertThat(api.register(Files.readString(Path.of("..", "examples", "expense-approval.yaml"))).status()).isEqualTo(201);
            for (int i = 0; i < 4; i++) {
                SopApi.Response started = api.start(PROCESS, Map.of("employee", "e" + i, "amount", 40 + i, "category", "travel"));
                assertThat(started.status()).isEqualTo(201);
                ids.add(started.json().path("id").asString());
            }
            for (String id : ids.subList(0, 2)) {
                assertThat(api.submit(PROCESS, id, "review", Map.of("decision", "approved", "comment", "ok")).status()).isEqualTo(200);
            }

            platform.kill();

            platform.start();
            platform.awaitHealthy(baseUrl, Duration.ofSeconds(120));
            // The judgment worker is a static member of its group: the judgments handed out before the kill are decided
            // (here escalated: the offline agent is not sure) within seconds, not after its dead self's session (45 s).
            long healthyAt = System.nanoTime();
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
                for (String id : ids.subList(0, 2)) {
                    assertThat(judged(api, id)).as("the judgment of %s, after the restart", id).isTrue();
                }
            });
            System.out.println("Judgments handed out before the kill decided " + (System.nanoTime() - healthyAt) / 1_000_000
                    + " ms after the restart was healthy");
            for (String id : ids) {
                assertThat(api.get("/sop/" + PROCESS + "/" + id).status()).as("instance %s survived", id).isEqualTo(200);
            }
            // RocksDB's library (15 MB) is kept in the data directory, one copy replaced at each start: the kill left
            // none in the temporary directory, where RocksDB would put a new copy at every start (docs/decisions.md, "Engine").
            assertThat(filesNamedLike("librocksdbjni", temporaryFiles)).as("RocksDB's library in the temporary directory").isEmpty();
            assertThat(filesNamedLike("librocksdbjni", dataDir)).as("RocksDB's library in the data directory").hasSize(1);
            assertThat(api.get("/sop/" + PROCESS + "/schema").status()).isEqualTo(200);
            for (String id : ids.subList(2, 4)) {
                assertThat(api.submit(PROCESS, id, "review", Map.of("decision", "approved", "comment", "ok")).status()).isEqualTo(200);
            }

            SopWorker worker = ExampleWorker.start("localhost:" + kafkaPort);
            try {
                for (String id : ids) {
                    finish(api, id);
                }
            } finally {
                worker.close();
            }
            for (String id : ids) {
                JsonNode instance = api.get("/sop/" + PROCESS + "/" + id).json();
                assertThat(instance.path("state").asString()).as(id).isEqualTo("completed");
                assertThat(instance.path("outputs").path("bank_status").asString()).isEqualTo("settled");
                assertThat(instance.path("outputs").path("receipt").asString()).startsWith("r-");
            }
            // A second judgment worker under the platform's static member id fences the platform's own, whose thread
            // then ends: judgments would wait for a restart, and health says so.
            assertThat(api.get("/actuator/health").status()).isEqualTo(200);
            try (SopWorker fencing = JudgmentWorker.start("localhost:" + kafkaPort, new Undecided(), 1, dataDir)) {
                await().atMost(Duration.ofSeconds(30)).until(() -> api.get("/actuator/health").status() == 503);
            }
            assertThat(platform.stop()).as("clean exit on SIGTERM").isIn(0, 130, 143);
        }
    }

    /** An agent that is never sure: the fencing worker decides nothing the test looks at. */
    private static final class Undecided implements JudgmentAgent {
        @Override
        public AgentAnswer decide(JudgmentRequest request) throws UndecidableException {
            throw new UndecidableException("not asked");
        }

        @Override
        public String model() {
            return "undecided";
        }
    }

    private static List<Path> filesNamedLike(String prefix, Path directory) throws IOException {
        try (Stream<Path> files = Files.walk(directory)) {
            return files.filter(file -> file.getFileName().toString().startsWith(prefix)).toList();
        }
    }

    /** Resolves what is left of one instance as the quickstart does: the judgment (if escalated) and the bank callback. */
    private static void finish(SopApi api, String id) {
        await().atMost(Duration.ofSeconds(60)).until(() -> judged(api, id));
        if ("active".equals(step(api, id, "policy-check").path("state").asString())) {
            assertThat(api.submit(PROCESS, id, "policy-check", Map.of("compliant", "yes")).status()).isEqualTo(200);
        }
        await().atMost(Duration.ofSeconds(60)).until(() -> "active".equals(step(api, id, "bank-confirmation").path("state").asString()));
        String callbackUrl = step(api, id, "bank-confirmation").path("callback_url").asString();
        String path = callbackUrl.substring(callbackUrl.indexOf("/sop/webhooks/"));
        assertThat(api.withToken(null).post(path, Map.of("status", "settled")).status()).isEqualTo(200);
    }

    /** The agent decided the judgment, or handed it to a person. */
    private static boolean judged(SopApi api, String id) {
        JsonNode judgment = step(api, id, "policy-check");
        return !"active".equals(judgment.path("state").asString()) || judgment.path("escalated").asBoolean();
    }

    private static JsonNode step(SopApi api, String id, String stepId) {
        for (JsonNode step : api.get("/sop/" + PROCESS + "/" + id + "/steps").json()) {
            if (step.path("id").asString().equals(stepId)) {
                return step;
            }
        }
        throw new AssertionError("no step " + stepId);
    }

    /** How many partitions each topic has, in the order named. */
    private static List<Integer> partitionsOf(String bootstrap, String... topics) throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            Map<String, TopicDescription> described = admin.describeTopics(List.of(topics)).allTopicNames().get();
            return Stream.of(topics).map(topic -> described.get(topic).partitions().size()).toList();
        }
    }
}
