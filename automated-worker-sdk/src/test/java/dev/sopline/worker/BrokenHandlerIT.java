package dev.sopline.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import dev.sopline.testing.CapturedLog;
import dev.sopline.testing.SharedKafka;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Handlers with defects: one that throws an {@link Error}, one whose outputs cannot be written as JSON. Each attempt
 * fails once, with a code that says why, and the step's retry policy decides, instead of the worker running the
 * handler again and again without reporting anything.
 */
class BrokenHandlerIT {

    private final Platform platform = Platform.get();

    @Test
    void shouldFailTheAttemptsOfAKafkaHandlerThatThrowsAnError() {
        platform.register(Platform.oneStepProcess("broken-error-kafka", "brokenerror.kafka"));
        AtomicInteger calls = new AtomicInteger();
        try (CapturedLog log = CapturedLog.of(StepOutcome.class);
             SopWorker worker = SopWorker.builder().kafka(SharedKafka.bootstrapServers()).group("broken-error-kafka")
                     .handle("brokenerror.kafka", throwingAnError(calls)).start()) {
            assertFailedOncePerAttempt("broken-error-kafka", platform.start("broken-error-kafka", Map.of("n", 1)), calls, "worker_error");
            assertThat(log.messagesAtLeast(Level.ERROR)).hasSize(calls.get())
                    .allSatisfy(message -> assertThat(message).contains("brokenerror.kafka", "NoClassDefFoundError", "worker_error"));
        }
    }

    @Test
    void shouldFailTheAttemptsOfAnHttpHandlerThatThrowsAnError() {
        platform.register(Platform.oneStepProcess("broken-error-http", "brokenerror.http"));
        AtomicInteger calls = new AtomicInteger();
        try (SopWorker worker = SopWorker.builder().http(platform.baseUrl(), Platform.TOKEN)
                .handle("brokenerror.http", throwingAnError(calls)).start()) {
            assertFailedOncePerAttempt("broken-error-http", platform.start("broken-error-http", Map.of("n", 1)), calls, "worker_error");
        }
    }

    @Test
    void shouldFailTheAttemptsOfAKafkaHandlerWhoseOutputsCannotBeWritten() {
        platform.register(Platform.oneStepProcess("unwritable-kafka", "unwritable.kafka"));
        AtomicInteger calls = new AtomicInteger();
        try (SopWorker worker = SopWorker.builder().kafka(SharedKafka.bootstrapServers()).group("unwritable-kafka")
                .handle("unwritable.kafka", holdingItself(calls)).start()) {
            assertFailedOncePerAttempt("unwritable-kafka", platform.start("unwritable-kafka", Map.of("n", 1)), calls, "invalid_payload");
        }
    }

    @Test
    void shouldFailTheAttemptsOfAnHttpHandlerWhoseOutputsCannotBeWritten() {
        platform.register(Platform.oneStepProcess("unwritable-http", "unwritable.http"));
        AtomicInteger calls = new AtomicInteger();
        try (SopWorker worker = SopWorker.builder().http(platform.baseUrl(), Platform.TOKEN)
                .handle("unwritable.http", holdingItself(calls)).start()) {
            assertFailedOncePerAttempt("unwritable-http", platform.start("unwritable-http", Map.of("n", 1)), calls, "invalid_payload");
        }
    }

    @Test
    void shouldReportTheOutputsOfAKafkaHandlerThatReturnsWithItsInterruptFlagSet() {
        platform.register(Platform.oneStepProcess("flagged-kafka", "flagged.kafka"));
        // As a handler does that caught an InterruptedException of its own and, as Java advises, set the flag again.
        try (SopWorker worker = SopWorker.builder().kafka(SharedKafka.bootstrapServers()).group("flagged-kafka")
                .handle("flagged.kafka", step -> {
                    Thread.currentThread().interrupt();
                    return Map.of("result", "kept " + step.input("n"));
                }).start()) {
            String id = platform.start("flagged-kafka", Map.of("n", 7));
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                    assertThat(platform.instance("flagged-kafka", id).path("state").asString()).isEqualTo("completed"));
            assertThat(platform.instance("flagged-kafka", id).path("steps").get(0).path("outputs").path("result").asString())
                    .isEqualTo("kept 7");
        }
    }

    /** A handler whose class path lacks what it needs: an Error, not an Exception. */
    private static StepHandler throwingAnError(AtomicInteger calls) {
        return step -> {
            calls.incrementAndGet();
            throw new NoClassDefFoundError("com/acme/billing/Gateway");
        };
    }

    /** Outputs that hold themselves: no JSON can be written for them. */
    private static StepHandler holdingItself(AtomicInteger calls) {
        return step -> {
            calls.incrementAndGet();
            Map<String, Object> outputs = new HashMap<>();
            outputs.put("result", outputs);
            return outputs;
        };
    }

    private void assertFailedOncePerAttempt(String process, String id, AtomicInteger calls, String code) {
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() ->
                assertThat(platform.instance(process, id).path("state").asString()).isEqualTo("failed"));
        JsonNode instance = platform.instance(process, id);
        assertThat(instance.path("error").path("code").asString()).isEqualTo(code);
        int attempts = instance.path("steps").get(0).path("attempt").asInt();
        assertThat(attempts).as("attempts, as the step's retry policy allows").isEqualTo(3);
        assertThat(calls.get()).as("handler calls: one per attempt").isEqualTo(attempts);
    }
}
