package dev.sopline.standalone;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sopline.engine.api.topic.EngineTopics;
import dev.sopline.engine.topology.EngineTopology;
import dev.sopline.schemas.topic.Topics;
import dev.sopline.testing.SopApi;
import dev.sopline.worker.SopWorker;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * The engine's own topics with one partition and the public ones with three ({@code SOP_ENGINE_PARTITIONS},
 * {@code SOP_TOPIC_PARTITIONS}): the topics are made so, and instances whose steps are spread over a team topic's
 * partitions run to the end through the one-partition command log.
 */
class TopicPartitionsIT {

    private static final String TOKEN = "topic-partitions-it-token";
    private static final String DEFINITION = """
            engine: "0.1"
            process:
              name: split-counts
              version: "1.0"
              inputs:
                - name: n
                  type: number
              steps:
                - id: first
                  type: automated
                  run: ledger.first
                  inputs:
                    n: "${inputs.n}"
                  outputs:
                    - name: m
                      type: number
                - id: second
                  type: automated
                  run: ledger.second
                  inputs:
                    m: "${steps.first.outputs.m}"
                  outputs:
                    - name: total
                      type: number
            """;

    @Test
    void shouldRunInstancesWithTheEnginesTopicsAndThePublicTopicsPartitionedApart(
            @TempDir(cleanup = CleanupMode.ON_SUCCESS) Path workDir) throws Exception {
        int httpPort = StandaloneProcess.freePort();
        int kafkaPort = StandaloneProcess.freePort();
        String bootstrap = "localhost:" + kafkaPort;
        String baseUrl = "http://localhost:" + httpPort;
        SopApi api = new SopApi(baseUrl, TOKEN);
        Map<String, String> env = Map.of(
                "SOP_HTTP_PORT", String.valueOf(httpPort),
                "SOP_KAFKA_PORT", String.valueOf(kafkaPort),
                "SOP_KAFKA_CONTROLLER_PORT", String.valueOf(StandaloneProcess.freePort()),
                "SOP_BOOTSTRAP_TOKEN", TOKEN,
                "SOP_JUDGMENT_WORKER", "false",
                "SOP_ENGINE_PARTITIONS", "1",
                "SOP_TOPIC_PARTITIONS", "3");

        try (StandaloneProcess platform = new StandaloneProcess(workDir.resolve("data"), env)) {
            platform.start();
            platform.awaitHealthy(baseUrl, Duration.ofSeconds(120));
            assertThat(api.register(DEFINITION).status()).isEqualTo(201);
            List<String> ids = new ArrayList<>();
            for (int n = 0; n < 24; n++) {
                SopApi.Response started = api.start("split-counts", Map.of("n", n));
                assertThat(started.status()).as(started.body()).isEqualTo(201);
                ids.add(started.json().path("id").asString());
            }

            try (SopWorker worker = SopWorker.builder().kafka(bootstrap).group("ledger-workers")
                    .handle("ledger.first", step -> Map.of("m", ((Number) step.input("n")).intValue() + 1))
                    .handle("ledger.second", step -> Map.of("total", ((Number) step.input("m")).intValue() * 10))
                    .start()) {
                await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                    for (int n = 0; n < ids.size(); n++) {
                        String id = ids.get(n);
                        assertThat(api.get("/sop/split-counts/" + id).json().path("state").asString()).as("instance %s", id)
                                .isEqualTo("completed");
                        var second = api.get("/sop/split-counts/" + id + "/steps").json().get(1);
                        assertThat(second.path("outputs").path("total").asInt()).as("instance %s", id).isEqualTo((n + 1) * 10);
                    }
                });
            }

            try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
                String teamTopic = Topics.automatedSteps("ledger");
                String instancesChangelog = "sop-engine-" + EngineTopology.INSTANCES_STORE + "-changelog";
                Map<String, Integer> partitions = admin.describeTopics(List.of(EngineTopics.COMMANDS, EngineTopics.REPLIES,
                                instancesChangelog, Topics.STEP_RESULTS, Topics.EVENTS, teamTopic))
                        .allTopicNames().get().values().stream()
                        .collect(Collectors.toMap(TopicDescription::name, description -> description.partitions().size()));
                assertThat(partitions).containsEntry(EngineTopics.COMMANDS, 1).containsEntry(EngineTopics.REPLIES, 1)
                        .containsEntry(instancesChangelog, 1)
                        .containsEntry(Topics.STEP_RESULTS, 3).containsEntry(Topics.EVENTS, 3).containsEntry(teamTopic, 3);
                Map<TopicPartition, OffsetAndMetadata> read = admin.listConsumerGroupOffsets("ledger-workers")
                        .partitionsToOffsetAndMetadata().get();
                assertThat(read.entrySet()).as("the team topic's partitions the worker took steps from")
                        .filteredOn(entry -> entry.getKey().topic().equals(teamTopic) && entry.getValue().offset() > 0)
                        .hasSizeGreaterThan(1);
            }
            assertThat(platform.stop()).as("clean exit on SIGTERM").isIn(0, 130, 143);
        }
    }
}
