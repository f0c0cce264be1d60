package dev.sopline.engine.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.github.f4b6a3.ulid.UlidCreator;
import dev.sopline.engine.api.DecisionListener;
import dev.sopline.engine.api.query.StateUnavailableException;
import dev.sopline.engine.api.serde.JsonSerde;
import dev.sopline.engine.it.EngineClient.RanStep;
import dev.sopline.engine.runtime.Engine;
import dev.sopline.engine.runtime.EngineSettings;
import dev.sopline.schemas.command.CommandReply;
import dev.sopline.schemas.definition.StepType;
import dev.sopline.schemas.event.StepReady;
import dev.sopline.schemas.instance.InstanceState;
import dev.sopline.schemas.topic.Topics;
import dev.sopline.testing.SharedKafka;
import io.cloudevents.CloudEvent;
import io.micrometer.core.instrument.Metrics;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The engine hands out replies and ready steps before its transaction commits (early handoff). Here its transaction is
 * aborted again and again under load, its producer fenced as a crash or a lost partition would, with a long commit
 * interval so that much of what the readers saw was not committed; the engine then decides again from the last commit.
 * A client and a worker that read uncommitted, as a gateway in another JVM and the SDK workers do, a gateway in the
 * engine's JVM, told of each reply as it is decided, and a third party that calls back once with the callback id it
 * was handed, must never have been told anything that the replay does not decide again.
 */
class EngineAbortReplayIT {

    private static final String WORKSPACE = "abort-replay";
    private static final String PROCESS = "abort-replay";
    private static final String FILE = """
            engine: "0.1"
            process:
              name: abort-replay
              version: "1.0"
              inputs:
                - name: n
                  type: integer
                  required: true
              steps:
                - id: first
                  type: automated
                  run: it.first
                  outputs:
                    - name: done
                - id: second
                  type: webhook
                  outputs:
                    - name: done
            """;
    private static final int CYCLES = 4;
    private static final int STARTS_PER_CYCLE = 25;

    @Test
    void shouldDecideAgainEverythingEarlyReadersSawWhenTransactionsAbort(@TempDir Path stateDir) throws Exception {
        EngineSettings settings = SharedKafkaEngine.settings(stateDir, Map.of("SOP_ENGINE_COMMIT_INTERVAL_MS", "2000"));
        Map<String, List<Integer>> toldInJvm = new ConcurrentHashMap<>();
        Engine engine = Engine.start(settings, Metrics.globalRegistry, new DecisionListener() {
            @Override
            public void replied(CommandReply reply) {
                toldInJvm.computeIfAbsent(reply.commandId(), id -> new CopyOnWriteArrayList<>()).add(reply.status());
            }
        });
        try (EngineClient client = EngineClient.readingUncommitted(SharedKafka.bootstrapServers())) {
            await().atMost(Duration.ofSeconds(90)).until(engine::isRunning);
            assertThat(client.register(WORKSPACE, FILE).status()).isEqualTo(201);
            client.startWorker("abort-replay-workers", Map.of("done", "yes"));
            client.startCallbackParty("abort-replay-callers", Map.of("done", "yes"));

            // when: starts keep coming, and after some were answered the open transaction is aborted, several times
            List<String> ids = new ArrayList<>();
            List<CompletableFuture<CommandReply>> starts = new ArrayList<>();
            int aborted = 0;
            for (int cycle = 0; cycle < CYCLES; cycle++) {
                int answeredBefore = client.replies().size();
                for (int i = 0; i < STARTS_PER_CYCLE; i++) {
                    String id = UlidCreator.getMonotonicUlid().toString();
                    ids.add(id);
                    starts.add(client.start(WORKSPACE, id, PROCESS, Map.of("n", i)));
                }
                await().atMost(Duration.ofSeconds(30)).until(() -> client.replies().size() >= answeredBefore + STARTS_PER_CYCLE / 2);
                aborted += abortOpenTransactions(settings.applicationId());
            }

            // then every start was answered 201, and some answers were seen before an abort and again after it
            for (CompletableFuture<CommandReply> start : starts) {
                assertThat(start.get(60, TimeUnit.SECONDS).status()).isEqualTo(201);
            }
            assertThat(aborted).as("transactions aborted").isPositive();
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(starts.stream().map(CompletableFuture::join)
                    .filter(reply -> client.repliesTo(reply.commandId()) > 1)).as("answers seen twice: before an abort and after it").isNotEmpty());

            // and the engine's JVM was told the same answers as they were decided, some before an abort and again after it
            for (CommandReply reply : starts.stream().map(CompletableFuture::join).toList()) {
                assertThat(toldInJvm.get(reply.commandId())).as("told in the JVM of %s", reply.commandId()).isNotEmpty().containsOnly(201);
            }
            assertThat(toldInJvm.values().stream().filter(statuses -> statuses.size() > 1))
                    .as("answers told twice in the JVM: before an abort and after it").isNotEmpty();

            // and every instance a 201 named exists and completes: no start and no worker result was lost
            // (while the engine takes its tasks up again after an abort, its stores cannot be read for a moment)
            await().atMost(Duration.ofSeconds(60)).ignoreException(StateUnavailableException.class).untilAsserted(() -> {
                for (String id : ids) {
                    assertThat(engine.queries().instance(WORKSPACE, id)).as("instance %s", id)
                            .hasValueSatisfying(view -> assertThat(view.state()).isEqualTo(InstanceState.COMPLETED));
                }
            });

            // and subscribers, who read committed, saw each instance's story once (so the last transaction has committed too)
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                    assertThat(EngineFailoverIT.completedIds(client.events())).containsAll(ids));
            Map<String, List<CloudEvent>> byInstance = client.events().stream()
                    .filter(event -> ids.contains(event.getSubject()))
                    .collect(Collectors.groupingBy(CloudEvent::getSubject));
            for (String id : ids) {
                assertThat(byInstance.get(id).stream().map(EngineFailoverIT::describe).toList()).as("events of %s", id).containsExactly(
                        "instance null->running",
                        "step first pending->active",
                        "step first active->completed",
                        "step second pending->active",
                        "instance running->waiting",
                        "step second active->completed",
                        "instance waiting->completed");
            }
            // and each step handed out early is one the engine made ready in a committed transaction, with the same attempt
            // and the same callback id
            Set<RanStep> committedReady = committedReadySteps(new HashSet<>(ids));
            List<RanStep> ranEarly = client.ran().stream().filter(step -> ids.contains(step.instanceId())).toList();
            assertThat(committedReady).containsAll(ranEarly);
            assertThat(new HashSet<>(ranEarly)).hasSize(2 * ids.size());

        } finally {
            engine.close();
        }
    }

    /**
     * Fences the engine's producers that have a transaction open, as a newer incarnation of them would after a crash:
     * the broker aborts the transaction, and the engine's stream thread drops its tasks and takes them up again from
     * the last commit.
     */
    static int abortOpenTransactions(String applicationId) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, SharedKafka.bootstrapServers()))) {
            List<String> open = admin.listTransactions().all().get(10, TimeUnit.SECONDS).stream()
                    .filter(listing -> listing.state() == TransactionState.ONGOING)
                    .map(TransactionListing::transactionalId)
                    .filter(id -> id.startsWith(applicationId + "-"))
                    .toList();
            if (!open.isEmpty()) {
                admin.fenceProducers(open).all().get(10, TimeUnit.SECONDS);
            }
            return open.size();
        }
    }

    /** The steps made ready for these instances, as a committed reader sees them once the engine is done. */
    private static Set<RanStep> committedReadySteps(Set<String> instanceIds) {
        Set<RanStep> ready = new HashSet<>();
        ready.addAll(committedReadySteps(Topics.automatedStepsFor("it.first"), instanceIds));
        ready.addAll(committedReadySteps(Topics.stepReady(StepType.WEBHOOK), instanceIds));
        return ready;
    }

    private static Set<RanStep> committedReadySteps(String topic, Set<String> instanceIds) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedKafka.bootstrapServers());
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        var reader = new JsonSerde<>(StepReady.class).deserializer();
        Set<RanStep> ready = new HashSet<>();
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                    .map(info -> new TopicPartition(topic, info.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                consumer.poll(Duration.ofMillis(100)).forEach(record -> {
                    StepReady step = reader.deserialize(topic, record.value());
                    if (instanceIds.contains(step.instanceId())) {
                        ready.add(RanStep.of(step));
                    }
                });
                return partitions.stream().allMatch(partition -> consumer.position(partition) >= end.get(partition));
            });
        }
        return ready;
    }
}
