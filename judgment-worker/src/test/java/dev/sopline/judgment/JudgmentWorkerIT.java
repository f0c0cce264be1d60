package dev.sopline.judgment;

import dev.sopline.testing.WorkerResults;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sopline.schemas.definition.FieldType;
import dev.sopline.schemas.definition.JudgmentSettings;
import dev.sopline.schemas.definition.OutputDeclaration;
import dev.sopline.schemas.definition.StepType;
import dev.sopline.schemas.event.StepReady;
import dev.sopline.schemas.event.StepResult;
import dev.sopline.schemas.json.Json;
import dev.sopline.schemas.topic.Topics;
import dev.sopline.testing.SharedKafka;
import dev.sopline.worker.SopWorker;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.health.contributor.Status;

/** The judgment worker on a real broker: the step-ready events it reads, the results it publishes, its health. */
class JudgmentWorkerIT {

    private static final String READY = Topics.stepReady(StepType.JUDGMENT);

    @BeforeAll
    static void createTopics() throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", SharedKafka.bootstrapServers()))) {
            for (String topic : List.of(READY, Topics.STEP_RESULTS, WorkerResults.COMMANDS)) {
                try {
                    admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw e;
                    }
                }
            }
        }
    }

    @Test
    void shouldEscalateOnceAndNeverReportTheLateAnswerOfAModelPastTheDecisionTimeout() throws Exception {
        CountDownLatch answeredLate = new CountDownLatch(1);
        JudgmentAgent stubborn = new JudgmentAgent() {
            @Override
            public AgentAnswer decide(JudgmentRequest request) {
                // A call that ignores its interrupt and answers, sure of itself, long after the deadline.
                long until = System.nanoTime() + Duration.ofSeconds(3).toNanos();
                while (System.nanoTime() < until) {
                    try {
                        Thread.sleep(50);
                    } catch (InterruptedException ignored) {
                        // Ignored on purpose.
                    }
                }
                answeredLate.countDown();
                return new AgentAnswer(Map.of("team", "billing"), 0.99, "late", "stubborn", null);
            }

            @Override
            public String model() {
                return "stubborn";
            }
        };
        String instanceId = "it-" + UUID.randomUUID();
        try (SopWorker worker = JudgmentWorker.start(SharedKafka.bootstrapServers(), new TimeLimitedAgent(stubborn, Duration.ofSeconds(1)), 1);
             KafkaConsumer<String, byte[]> results = resultsReader()) {
            send(step(instanceId));

            List<StepResult> seen = new ArrayList<>();
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                seen.addAll(resultsOf(results, instanceId));
                return !seen.isEmpty();
            });
            assertThat(seen).singleElement().satisfies(result -> {
                assertThat(result.outputs()).isNull();
                assertThat(result.error().code()).isEqualTo(JudgmentResolver.UNDECIDED);
                assertThat(result.error().message()).isEqualTo("The model did not answer within 1 s, so a person decides");
            });
            await().atMost(Duration.ofSeconds(10)).until(() -> answeredLate.getCount() == 0);
            await("no second result of the attempt").during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5)).until(() -> {
                seen.addAll(resultsOf(results, instanceId));
                return seen.size() == 1;
            });
        }
    }

    @Test
    void shouldBeDownOnceAnotherWorkerJoinsUnderItsIdAndFencesIt(@TempDir Path dataDir) throws Exception {
        JudgmentAgent agent = new JudgmentAgent() {
            @Override
            public AgentAnswer decide(JudgmentRequest request) throws UndecidableException {
                throw new UndecidableException("not in this test");
            }

            @Override
            public String model() {
                return "none";
            }
        };
        SopWorker first = JudgmentWorker.start(SharedKafka.bootstrapServers(), agent, 1, dataDir);
        SopWorker second = null;
        try {
            JudgmentHealthIndicator health = new JudgmentHealthIndicator(() -> first);
            await().atMost(Duration.ofSeconds(30)).until(() -> health.health().getStatus().equals(Status.UP) && hasStaticMember());

            second = JudgmentWorker.start(SharedKafka.bootstrapServers(), agent, 1, dataDir);

            await("the first worker, fenced").atMost(Duration.ofSeconds(30)).until(() -> health.health().getStatus().equals(Status.DOWN));
            assertThat(health.health().getDetails()).containsEntry("judgment_worker", "stopped; see its log for why");
        } finally {
            first.close();
            if (second != null) {
                second.close();
            }
        }
    }

    @Test
    void shouldServeWorkspacesInTurnWhenOneHasABacklog() throws Exception {
        String run = UUID.randomUUID().toString();
        List<StepReady> backlog = new ArrayList<>();
        for (int n = 0; n < 30; n++) {
            backlog.add(step("fair-a", UUID.randomUUID().toString(), Map.of("run", run, "who", "a")));
        }
        backlog.add(step("fair-b", UUID.randomUUID().toString(), Map.of("run", run, "who", "b")));
        send(backlog.toArray(StepReady[]::new));
        List<Object> decided = java.util.Collections.synchronizedList(new ArrayList<>());
        JudgmentAgent agent = new JudgmentAgent() {
            @Override
            public AgentAnswer decide(JudgmentRequest request) throws UndecidableException {
                if (run.equals(request.inputs().get("run"))) {
                    decided.add(request.inputs().get("who"));
                }
                try {
                    Thread.sleep(10);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                throw new UndecidableException("to a person");
            }

            @Override
            public String model() {
                return "recorder";
            }
        };
        try (SopWorker worker = JudgmentWorker.start(SharedKafka.bootstrapServers(), agent, 1)) {
            await().atMost(Duration.ofSeconds(60)).until(() -> decided.size() == 31);
        }
        assertThat(decided.indexOf("b")).as("b's one judgment, behind a's thirty on the one partition").isLessThan(5);
    }

    private static boolean hasStaticMember() throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", SharedKafka.bootstrapServers()))) {
            return admin.describeConsumerGroups(List.of(JudgmentWorker.GROUP)).all().get().get(JudgmentWorker.GROUP).members().stream()
                    .anyMatch(member -> member.groupInstanceId().isPresent());
        }
    }

    private static StepReady step(String instanceId) {
        return step("default", instanceId, Map.of("ticket", "charged twice"));
    }

    private static StepReady step(String workspace, String instanceId, Map<String, Object> inputs) {
        return new StepReady(workspace, instanceId, "support", "1.0", "route", "Route the ticket", StepType.JUDGMENT, null, 1,
                inputs, List.of(new OutputDeclaration("team", FieldType.ENUM, List.of("billing", "shipping"), null, null)),
                new JudgmentSettings(true, 0.8, "human", null), null, null, Instant.now());
    }

    private static void send(StepReady... steps) throws Exception {
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(Map.of("bootstrap.servers", SharedKafka.bootstrapServers()),
                new StringSerializer(), new ByteArraySerializer())) {
            for (StepReady step : steps) {
                producer.send(new ProducerRecord<>(READY, step.instanceId(), Json.mapper().writeValueAsBytes(step))).get();
            }
        }
    }

    private static KafkaConsumer<String, byte[]> resultsReader() {
        KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedKafka.bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG, "results-" + UUID.randomUUID(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"), new StringDeserializer(), new ByteArrayDeserializer());
        consumer.subscribe(WorkerResults.TOPICS);
        return consumer;
    }

    private static List<StepResult> resultsOf(KafkaConsumer<String, byte[]> consumer, String instanceId) {
        List<StepResult> found = new ArrayList<>();
        consumer.poll(Duration.ofMillis(200)).forEach(record -> WorkerResults.of(record)
                .filter(result -> instanceId.equals(result.instanceId()) && !result.carriesHeartbeat())
                .ifPresent(found::add));
        return found;
    }
}
