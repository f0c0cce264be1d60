package dev.sopline.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.github.f4b6a3.ulid.UlidCreator;
import dev.sopline.schemas.definition.StepType;
import dev.sopline.schemas.event.StepReady;
import dev.sopline.schemas.json.Json;
import dev.sopline.schemas.topic.Topics;
import ch.qos.logback.classic.Level;
import dev.sopline.testing.CapturedLog;
import dev.sopline.testing.SharedKafka;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * One workspace's backlog on a topic that several share: one partition holding 60 steps of workspace {@code a}, then
 * one of {@code b}, for a worker with one slot.
 */
class FairWorkspacesIT {

    private static final int BACKLOG = 60;

    private String run;

    @BeforeEach
    void writeBacklog() throws Exception {
        Platform.get(); // the engine's topics, sop.step-results among them
        String team = "fairness" + UlidCreator.getMonotonicUlid().toString().toLowerCase();
        run = team + ".work";
        String topic = Topics.automatedSteps(team);
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", SharedKafka.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();
        }
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(Map.of("bootstrap.servers", SharedKafka.bootstrapServers()),
                new StringSerializer(), new ByteArraySerializer())) {
            for (int n = 0; n < BACKLOG; n++) {
                send(producer, topic, "a");
            }
            send(producer, topic, "b");
            producer.flush();
        }
    }

    @Test
    void shouldServeAnotherWorkspacesStepNextWhenFairAcrossWorkspaces() {
        List<String> served = serve(SopWorker.builder().fairAcrossWorkspaces(1_000, 16 * 1024 * 1024), "fair-");

        assertThat(served.indexOf("b")).as("b's step waits for a's running step and at most a few taken meanwhile").isLessThan(5);
    }

    @Test
    void shouldServeStepsInTheOrderWrittenByDefault() {
        List<String> served = serve(SopWorker.builder(), "in-order-");

        assertThat(served.indexOf("b")).as("behind all of a's").isEqualTo(BACKLOG);
    }

    @Test
    void shouldGiveUpOnAStepThatWaitedPastItsDeadlineBeforeItStarts() throws Exception {
        String team = "fairdeadline" + UlidCreator.getMonotonicUlid().toString().toLowerCase();
        String topic = Topics.automatedSteps(team);
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", SharedKafka.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();
        }
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(Map.of("bootstrap.servers", SharedKafka.bootstrapServers()),
                new StringSerializer(), new ByteArraySerializer())) {
            producer.send(record(topic, team + ".work", "slow", null));
            // Read ahead at once, and past its deadline (and the worker's second of grace) before the slow step ends.
            producer.send(record(topic, team + ".work", "late", Instant.now().plusSeconds(1)));
            producer.send(record(topic, team + ".work", "next", null));
        }
        List<String> ran = Collections.synchronizedList(new ArrayList<>());
        try (CapturedLog log = CapturedLog.of(KafkaStepWorker.class);
             SopWorker worker = SopWorker.builder().fairAcrossWorkspaces(1_000, 16 * 1024 * 1024).kafka(SharedKafka.bootstrapServers())
                .group("fair-deadline-" + team).concurrency(1).readPreviousTopic(false)
                .handle(team + ".work", step -> {
                    ran.add(step.stepId());
                    if (step.stepId().equals("slow")) {
                        Thread.sleep(3_500);
                    }
                    return Map.of();
                }).start()) {
            await().atMost(Duration.ofSeconds(60)).until(() -> ran.contains("next"));
            assertThat(log.messagesAtLeast(Level.WARN)).as("never handed to a handler thread")
                    .anyMatch(message -> message.contains("gave up on step late") && message.contains("before it started"));
        }
        assertThat(ran).containsExactly("slow", "next");
    }

    private static ProducerRecord<String, byte[]> record(String topic, String run, String stepId, Instant deadline) {
        String instanceId = UlidCreator.getMonotonicUlid().toString();
        StepReady ready = new StepReady("a", instanceId, "fair", "1.0", stepId, stepId, StepType.AUTOMATED, run, 1,
                Map.of(), List.of(), null, null, deadline, Instant.now());
        return new ProducerRecord<>(topic, instanceId, Json.mapper().writeValueAsBytes(ready));
    }

    /** The workspaces of the steps the worker ran, in the order it ran them, once it has run them all. */
    private List<String> serve(SopWorker.Builder builder, String groupPrefix) {
        List<String> served = Collections.synchronizedList(new ArrayList<>());
        try (SopWorker worker = builder.kafka(SharedKafka.bootstrapServers()).group(groupPrefix + run).concurrency(1).readPreviousTopic(false)
                .handle(run, step -> {
                    served.add(step.workspace());
                    Thread.sleep(10);
                    return Map.of();
                }).start()) {
            await().atMost(Duration.ofSeconds(60)).until(() -> served.size() == BACKLOG + 1);
        }
        return List.copyOf(served);
    }

    private void send(KafkaProducer<String, byte[]> producer, String topic, String workspace) {
        String instanceId = UlidCreator.getMonotonicUlid().toString();
        StepReady ready = new StepReady(workspace, instanceId, "fair", "1.0", "work", "Work", StepType.AUTOMATED, run, 1,
                Map.of(), List.of(), null, null, null, Instant.now());
        producer.send(new ProducerRecord<>(topic, instanceId, Json.mapper().writeValueAsBytes(ready)));
    }
}
