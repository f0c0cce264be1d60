package dev.sopline.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import dev.sopline.schemas.json.Json;
import dev.sopline.testing.CapturedLog;
import dev.sopline.testing.SharedKafka;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Predicate;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * A result the broker does not take at first (an outage) is sent again until it does, or until its attempt's deadline
 * has passed: the handler, whose side effects would repeat, runs once per attempt.
 */
class UnpublishedResultIT {

    private final Platform platform = Platform.get();

    @Test
    void shouldSendAResultAgainUntilTheBrokerTakesItWithoutRunningTheHandlerAgain() throws Exception {
        platform.register(Platform.oneStepProcess("unpublished-flow", "unpublished.work"));
        AtomicInteger calls = new AtomicInteger();
        // More refusals than the worker once tried before running the step again.
        AtomicInteger refusals = new AtomicInteger(6);
        OutageProducer producer = new OutageProducer(record -> refusals.getAndDecrement() > 0);
        try (RunningWorker worker = RunningWorker.start("unpublished", "unpublished.work", producer,
                step -> Map.of("result", "paid once, call " + calls.incrementAndGet()))) {
            String id = platform.start("unpublished-flow", Map.of("n", 1));

            await().atMost(Duration.ofSeconds(60)).untilAsserted(() ->
                    assertThat(platform.instance("unpublished-flow", id).path("state").asString()).isEqualTo("completed"));
            JsonNode step = platform.instance("unpublished-flow", id).path("steps").get(0);
            assertThat(step.path("outputs").path("result").asString()).isEqualTo("paid once, call 1");
            assertThat(calls).as("handler calls").hasValue(1);
            assertThat(producer.refused()).isEqualTo(6);
        }
    }

    @Test
    void shouldStopSendingAResultOnceItsAttemptTimedOutAndRunOnlyTheNextAttempt() throws Exception {
        platform.register(Platform.oneStepProcess("unpublished-timeout", "unpublishedtimeout.work").replace("      run: unpublishedtimeout.work\n", """
                      run: unpublishedtimeout.work
                      timeout: 4s
                      heartbeat_timeout: 4s
                      retry:
                        max_attempts: 2
                        initial_backoff: 1s
                """));
        AtomicInteger calls = new AtomicInteger();
        // The results of the first attempt never reach the broker; the engine times that attempt out (a step with a
        // heartbeat_timeout gets a new attempt then; without one it would fail).
        OutageProducer producer = new OutageProducer(record -> resultIn(record).path("attempt").asInt() == 1);
        try (CapturedLog log = CapturedLog.of(KafkaStepWorker.class);
             RunningWorker worker = RunningWorker.start("unpublished-timeout", "unpublishedtimeout.work", producer,
                     step -> Map.of("result", "call " + calls.incrementAndGet() + ", attempt " + step.attempt()))) {
            String id = platform.start("unpublished-timeout", Map.of("n", 1));

            await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                    assertThat(platform.instance("unpublished-timeout", id).path("state").asString()).isEqualTo("completed"));
            JsonNode step = platform.instance("unpublished-timeout", id).path("steps").get(0);
            assertThat(step.path("outputs").path("result").asString()).isEqualTo("call 2, attempt 2");
            assertThat(calls).as("handler calls: one per attempt").hasValue(2);
            assertThat(log.messagesAtLeast(Level.WARN)).anySatisfy(message -> assertThat(message).contains("gave up on step work", "attempt 1"));
        }
    }

    @Test
    void shouldSendResultsToStepResultsOnceTheBrokerRefusesTheCommandTopicLosingNone() throws Exception {
        platform.register(Platform.oneStepProcess("refused-commands", "refusedcommands.work"));
        AtomicInteger calls = new AtomicInteger();
        // As a broker whose ACLs grant the worker sop.step-results and not the engine's command topic.
        OutageProducer producer = new OutageProducer(record -> record.topic().equals(ResultRoute.COMMANDS),
                record -> new TopicAuthorizationException(Set.of(record.topic())));
        try (RunningWorker worker = RunningWorker.start("refused-commands", "refusedcommands.work", producer,
                step -> Map.of("result", "call " + calls.incrementAndGet()))) {
            String first = platform.start("refused-commands", Map.of("n", 1));
            String second = platform.start("refused-commands", Map.of("n", 2));

            for (String id : List.of(first, second)) {
                await().atMost(Duration.ofSeconds(60)).untilAsserted(() ->
                        assertThat(platform.instance("refused-commands", id).path("state").asString()).isEqualTo("completed"));
            }
            assertThat(calls).as("handler calls: one per instance").hasValue(2);
            assertThat(producer.refused()).as("only the first result was refused; the rest went to sop.step-results").isEqualTo(1);
        }
    }

    /** A worker of one handler, in group {@code <name>-workers}, sending through {@code producer}; stopped on close. */
    private record RunningWorker(KafkaStepWorker worker, Thread thread) implements AutoCloseable {

        static RunningWorker start(String name, String run, OutageProducer producer, StepHandler handler) {
            KafkaStepWorker worker = new KafkaStepWorker(SharedKafka.bootstrapServers(), name + "-workers",
                    StepTopics.forHandlers(Set.of(run), false), ready -> true, null, 1, name + "-worker", null, producer)
                    .withHandlers(Map.of(run, handler));
            Thread thread = new Thread(worker, name + "-worker");
            thread.start();
            return new RunningWorker(worker, thread);
        }

        @Override
        public void close() throws InterruptedException {
            worker.stop(Duration.ofSeconds(5));
            thread.join(15_000);
        }
    }

    /** The result a record carries: as written to sop.step-results, or wrapped as the engine's command. */
    private static JsonNode resultIn(ProducerRecord<String, byte[]> record) {
        JsonNode value = Json.mapper().readTree(record.value());
        return value.has("result") ? value.get("result") : value;
    }

    /** The real producer, refusing some sends as a broker outage does: delivery timed out. */
    private static final class OutageProducer extends KafkaProducer<String, byte[]> {
        private final Predicate<ProducerRecord<String, byte[]>> refuses;
        private final Function<ProducerRecord<String, byte[]>, Exception> refusal;
        private final AtomicInteger refused = new AtomicInteger();

        OutageProducer(Predicate<ProducerRecord<String, byte[]>> refuses) {
            this(refuses, record -> new TimeoutException("Expiring 1 record(s) for " + record.topic() + ": 120000 ms has passed"));
        }

        OutageProducer(Predicate<ProducerRecord<String, byte[]>> refuses, Function<ProducerRecord<String, byte[]>, Exception> refusal) {
            super(Map.of("bootstrap.servers", SharedKafka.bootstrapServers(), "acks", "all"), new StringSerializer(), new ByteArraySerializer());
            this.refuses = refuses;
            this.refusal = refusal;
        }

        @Override
        public Future<RecordMetadata> send(ProducerRecord<String, byte[]> record, Callback callback) {
            if (refuses.test(record)) {
                refused.incrementAndGet();
                return CompletableFuture.failedFuture(refusal.apply(record));
            }
            return super.send(record, callback);
        }

        int refused() {
            return refused.get();
        }
    }
}
