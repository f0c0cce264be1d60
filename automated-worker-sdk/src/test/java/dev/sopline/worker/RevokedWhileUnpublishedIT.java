package dev.sopline.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import dev.sopline.testing.CapturedLog;
import dev.sopline.testing.SharedKafka;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * A partition moves to another member while a step of it waits for the broker to take its result: the worker hands
 * the step over and keeps running. Before, a step that ended unpublished during the move was queued again after its
 * partition was dropped, and the worker's poll thread died on it.
 */
class RevokedWhileUnpublishedIT {

    private static final int STEPS = 12;

    private final Platform platform = Platform.get();

    @Test
    void shouldKeepRunningWhenAPartitionMovesWhileAResultIsNotTakenYet() throws Exception {
        platform.register(Platform.oneStepProcess("revoked-flow", "revoked.work"));
        AtomicInteger calls = new AtomicInteger();
        AtomicBoolean outage = new AtomicBoolean(true);
        StepHandler handler = step -> Map.of("result", "call " + calls.incrementAndGet());
        KafkaStepWorker first = new KafkaStepWorker(SharedKafka.bootstrapServers(), "revoked-workers",
                StepTopics.forHandlers(Set.of("revoked.work"), false), ready -> true, null, STEPS, "revoked-first", null,
                new OutageProducer(outage)).withHandlers(Map.of("revoked.work", handler));
        Thread firstThread = new Thread(first, "revoked-first");
        try (CapturedLog log = CapturedLog.of(KafkaStepWorker.class)) {
            firstThread.start();
            // Steps on every partition: a member joining takes some of them over (cooperative rebalancing moves only
            // those), and the first worker's sends of their results are still refused when it gives them up.
            List<String> ids = new ArrayList<>();
            for (int n = 0; n < STEPS; n++) {
                ids.add(platform.start("revoked-flow", Map.of("n", n)));
            }
            await().atMost(Duration.ofSeconds(30)).until(() -> calls.get() >= STEPS);

            try (SopWorker second = SopWorker.builder().kafka(SharedKafka.bootstrapServers()).group("revoked-workers")
                    .workerId("revoked-second").readPreviousTopic(false).handle("revoked.work", step -> Map.of("result", "by the second"))
                    .start()) {
                KafkaWorkerIT.awaitStableGroup("revoked-workers", 2);
                outage.set(false);

                await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(ids).allSatisfy(id ->
                        assertThat(platform.instance("revoked-flow", id).path("state").asString()).isEqualTo("completed")));
                assertThat(ids).as("steps of the partitions taken from the first worker, run by the second")
                        .anySatisfy(id -> assertThat(platform.instance("revoked-flow", id).path("steps").get(0).path("outputs")
                                .path("result").asString()).isEqualTo("by the second"));
                assertThat(firstThread.isAlive()).as("the first worker survived the move").isTrue();
                assertThat(second.isRunning()).isTrue();
            }
            assertThat(log.messagesAtLeast(Level.ERROR)).isEmpty();
        } finally {
            first.stop(Duration.ofSeconds(5));
            firstThread.join(15_000);
        }
    }

    /** The real producer, refusing every send while the outage lasts, as a broker out of reach does. */
    private static final class OutageProducer extends KafkaProducer<String, byte[]> {
        private final AtomicBoolean outage;

        OutageProducer(AtomicBoolean outage) {
            super(Map.of("bootstrap.servers", SharedKafka.bootstrapServers(), "acks", "all"), new StringSerializer(), new ByteArraySerializer());
            this.outage = outage;
        }

        @Override
        public Future<RecordMetadata> send(ProducerRecord<String, byte[]> record, Callback callback) {
            if (outage.get()) {
                return CompletableFuture.failedFuture(new TimeoutException("Expiring 1 record(s) for " + record.topic() + ": 120000 ms has passed"));
            }
            return super.send(record, callback);
        }
    }
}
