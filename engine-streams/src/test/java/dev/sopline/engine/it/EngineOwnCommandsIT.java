package dev.sopline.engine.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.github.f4b6a3.ulid.UlidCreator;
import dev.sopline.engine.api.query.StateUnavailableException;
import dev.sopline.engine.api.topic.EngineTopics;
import dev.sopline.engine.runtime.Engine;
import dev.sopline.engine.runtime.EngineSettings;
import dev.sopline.schemas.command.CommandReply;
import dev.sopline.testing.SharedKafka;
import io.cloudevents.CloudEvent;
import io.micrometer.core.instrument.Metrics;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The engine's own commands (timer fires, expiries) reach its command topic outside its transactions, so no open
 * transaction of the engine holds back the readers of that topic, and a command the engine writes twice, as it does
 * when a transaction is aborted after punctuation wrote it, still acts once.
 */
class EngineOwnCommandsIT {

    private static final String WORKSPACE = "own-commands";
    private static final String PROCESS = "own-commands";
    private static final String FILE = """
            engine: "0.1"
            process:
              name: own-commands
              version: "1.0"
              steps:
                - id: sign
                  type: form
                  timeout: 1s
                  outputs:
                    - name: ok
                      type: boolean
            """;
    private static final int INSTANCES = 20;

    @Test
    void shouldTimeOutAndExpireEachInstanceOnceWithoutTransactionalWritesToTheCommandTopic(@TempDir Path stateDir) throws Exception {
        // given an engine that keeps finished instances 2 s and commits every 2 s, so its transactions stay open a while
        EngineSettings settings = SharedKafkaEngine.settings(stateDir, Map.of("SOP_ENGINE_COMMIT_INTERVAL_MS", "2000", "SOP_RETENTION", "2s"));
        Engine engine = Engine.start(settings, Metrics.globalRegistry);
        try (EngineClient client = EngineClient.readingUncommitted(SharedKafka.bootstrapServers())) {
            await("engine running").atMost(Duration.ofSeconds(90)).until(engine::isRunning);
            assertThat(client.register(WORKSPACE, FILE).status()).isEqualTo(201);

            // when instances start whose one step times out after 1 s, and the engine's open transactions are aborted
            // while the timeouts fire, so what punctuation wrote in them is decided again
            List<String> ids = new ArrayList<>();
            List<CompletableFuture<CommandReply>> starts = new ArrayList<>();
            for (int i = 0; i < INSTANCES; i++) {
                String id = UlidCreator.getMonotonicUlid().toString();
                ids.add(id);
                starts.add(client.start(WORKSPACE, id, PROCESS, Map.of()));
            }
            for (CompletableFuture<CommandReply> start : starts) {
                assertThat(start.get(60, TimeUnit.SECONDS).status()).isEqualTo(201);
            }
            int aborted = 0;
            for (int round = 0; round < 6; round++) {
                Thread.sleep(500);
                aborted += EngineAbortReplayIT.abortOpenTransactions(settings.applicationId());
            }
            assertThat(aborted).as("transactions aborted").isPositive();

            // then each instance timed out once, as subscribers see it
            await("every instance timed out").atMost(Duration.ofSeconds(60)).untilAsserted(() ->
                    assertThat(storiesOf(client.events(), ids).values()).hasSize(INSTANCES));
            storiesOf(client.events(), ids).forEach((id, story) -> assertThat(story).as("events of %s", id).containsExactly(
                    "instance null->running",
                    "step sign pending->active",
                    "instance running->waiting",
                    "step sign active->failed",
                    "instance waiting->failed"));

            // and each was removed once its 2 s retention had passed
            await("every instance removed").atMost(Duration.ofSeconds(60)).ignoreException(StateUnavailableException.class).untilAsserted(() -> {
                for (String id : ids) {
                    assertThat(engine.queries().instance(WORKSPACE, id)).as("instance %s", id).isEmpty();
                }
            });

            // and no producer ever wrote to the command topic inside a transaction: nothing held its readers back
            assertThat(transactionalWritersOfCommands()).isEmpty();
        } finally {
            engine.close();
        }
    }

    /** Each instance's events, described, for the instances that have failed. */
    private static Map<String, List<String>> storiesOf(List<CloudEvent> events, List<String> ids) {
        Map<String, List<String>> stories = events.stream()
                .filter(event -> ids.contains(event.getSubject()))
                .collect(Collectors.groupingBy(CloudEvent::getSubject, Collectors.mapping(EngineFailoverIT::describe, Collectors.toList())));
        stories.values().removeIf(story -> !story.contains("instance waiting->failed"));
        return stories;
    }

    /**
     * The producers whose writes to the command topic were part of a transaction: one with a transaction open there now,
     * or one the broker has written a transaction's marker for.
     */
    private static List<ProducerState> transactionalWritersOfCommands() throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, SharedKafka.bootstrapServers()))) {
            List<TopicPartition> partitions = admin.describeTopics(List.of(EngineTopics.COMMANDS)).allTopicNames().get(10, TimeUnit.SECONDS)
                    .get(EngineTopics.COMMANDS).partitions().stream()
                    .map(partition -> new TopicPartition(EngineTopics.COMMANDS, partition.partition())).toList();
            return admin.describeProducers(partitions).all().get(10, TimeUnit.SECONDS).values().stream()
                    .flatMap(description -> description.activeProducers().stream())
                    .filter(producer -> producer.coordinatorEpoch().isPresent() || producer.currentTransactionStartOffset().isPresent())
                    .toList();
        }
    }
}
