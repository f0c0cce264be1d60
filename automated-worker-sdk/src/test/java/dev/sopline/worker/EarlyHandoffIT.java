package dev.sopline.worker;

import dev.sopline.testing.WorkerResults;
import java.util.Optional;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.f4b6a3.ulid.UlidCreator;
import dev.sopline.schemas.definition.StepType;
import dev.sopline.schemas.event.StepReady;
import dev.sopline.schemas.event.StepResult;
import dev.sopline.schemas.json.Json;
import dev.sopline.schemas.topic.Topics;
import dev.sopline.testing.SharedKafka;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * Early handoff: a worker takes a step as soon as the engine has written it inside its transaction, while a
 * subscriber reading committed records does not see it until that transaction commits. The engine's transaction is
 * played here by a transactional producer that never commits.
 */
class EarlyHandoffIT {

    @Test
    void shouldRunAStepWrittenInATransactionThatHasNotCommittedAndReportItsResult() throws Exception {
        Platform.get(); // the engine's topics, with their partitions
        String run = "early." + UlidCreator.getMonotonicUlid();
        String instanceId = UlidCreator.getMonotonicUlid().toString();
        StepReady ready = new StepReady("early-handoff", instanceId, "early", "1.0", "work", "Work", StepType.AUTOMATED, run, 1,
                Map.of("n", 7), List.of(), null, null, null, Instant.now());
        CompletableFuture<StepContext> handled = new CompletableFuture<>();
        String steps = Topics.stepReady(StepType.AUTOMATED);

        try (KafkaConsumer<String, byte[]> committedSubscriber = committedReader(steps);
             KafkaConsumer<String, byte[]> results = committedReader(WorkerResults.TOPICS.toArray(String[]::new));
             KafkaProducer<String, byte[]> engine = transactionalProducer();
             SopWorker worker = SopWorker.builder().kafka(SharedKafka.bootstrapServers()).group("early-" + instanceId)
                     .handle(run, step -> {
                         handled.complete(step);
                         return Map.of("doubled", ((Number) step.inputs().get("n")).intValue() * 2);
                     })
                     .start()) {
            engine.initTransactions();
            engine.beginTransaction();
            engine.send(new ProducerRecord<>(steps, instanceId, Json.mapper().writeValueAsBytes(ready))).get();

            StepContext step = handled.get(60, TimeUnit.SECONDS);
            assertThat(step.instanceId()).isEqualTo(instanceId);
            assertThat(step.attempt()).isEqualTo(1);
            StepResult result = awaitResult(results, instanceId);
            assertThat(result.attempt()).isEqualTo(1);
            assertThat(result.outputs()).containsEntry("doubled", 14);
            assertThat(keysIn(committedSubscriber)).as("a committed reader sees the step only once it commits").doesNotContain(instanceId);

            engine.commitTransaction();
            List<String> afterCommit = new ArrayList<>();
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (!afterCommit.contains(instanceId) && System.nanoTime() < deadline) {
                afterCommit.addAll(keysIn(committedSubscriber));
            }
            assertThat(afterCommit).contains(instanceId);
        }
    }

    private static StepResult awaitResult(KafkaConsumer<String, byte[]> results, String instanceId) {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < deadline) {
            for (ConsumerRecord<String, byte[]> record : results.poll(Duration.ofMillis(200))) {
                Optional<StepResult> result = WorkerResults.of(record).filter(found -> instanceId.equals(found.instanceId()));
                if (result.isPresent()) {
                    return result.get();
                }
            }
        }
        throw new AssertionError("No result was reported for " + instanceId);
    }

    private static List<String> keysIn(KafkaConsumer<String, byte[]> consumer) {
        List<String> keys = new ArrayList<>();
        consumer.poll(Duration.ofMillis(500)).forEach(record -> keys.add(record.key()));
        return keys;
    }

    /** Reads committed records from the current end of every partition of the topics, as a subscriber would. */
    private static KafkaConsumer<String, byte[]> committedReader(String... topics) {
        KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedKafka.bootstrapServers(),
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"), new StringDeserializer(), new ByteArrayDeserializer());
        List<TopicPartition> partitions = java.util.Arrays.stream(topics).flatMap(topic -> consumer.partitionsFor(topic).stream()
                .map(info -> new TopicPartition(topic, info.partition()))).toList();
        consumer.assign(partitions);
        consumer.seekToEnd(partitions);
        partitions.forEach(consumer::position);
        return consumer;
    }

    private static KafkaProducer<String, byte[]> transactionalProducer() {
        return new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedKafka.bootstrapServers(),
                ProducerConfig.TRANSACTIONAL_ID_CONFIG, "early-handoff-" + UlidCreator.getMonotonicUlid()),
                new StringSerializer(), new ByteArraySerializer());
    }
}
