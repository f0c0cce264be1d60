package dev.sopline.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sopline.testing.SharedKafka;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * A result no Kafka record can hold fails its attempt with {@code payload_too_large}, and the step's policy retries
 * it, instead of the worker running the step again without end.
 */
class OversizedResultIT {

    private final Platform platform = Platform.get();

    @Test
    void shouldFailTheAttemptsOfAResultTooLargeForOneRecord() {
        platform.register(Platform.oneStepProcess("oversized-kafka", "reports.kafka"));
        AtomicInteger calls = new AtomicInteger();
        try (SopWorker worker = SopWorker.builder().kafka(SharedKafka.bootstrapServers()).group("reports-kafka")
                .handle("reports.kafka", oversized(calls)).start()) {
            assertFailedOncePerAttempt("oversized-kafka", platform.start("oversized-kafka", Map.of("n", 1)), calls);
        }
    }

    @Test
    void shouldFailTheAttemptsOfAResultTooLargeForTheGateway() {
        platform.register(Platform.oneStepProcess("oversized-http", "reports.http"));
        AtomicInteger calls = new AtomicInteger();
        try (SopWorker worker = SopWorker.builder().http(platform.baseUrl(), Platform.TOKEN)
                .handle("reports.http", oversized(calls)).start()) {
            assertFailedOncePerAttempt("oversized-http", platform.start("oversized-http", Map.of("n", 1)), calls);
        }
    }

    /** Two megabytes of output: over the producer's 1 MiB record and the gateway's 1 MiB body. */
    private static StepHandler oversized(AtomicInteger calls) {
        String twoMegabytes = "x".repeat(2 * 1024 * 1024);
        return step -> {
            calls.incrementAndGet();
            return Map.of("result", twoMegabytes);
        };
    }

    private void assertFailedOncePerAttempt(String process, String id, AtomicInteger calls) {
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() ->
                assertThat(platform.instance(process, id).path("state").asString()).isEqualTo("failed"));
        JsonNode instance = platform.instance(process, id);
        assertThat(instance.path("error").path("code").asString()).isEqualTo("payload_too_large");
        int attempts = instance.path("steps").get(0).path("attempt").asInt();
        assertThat(attempts).as("attempts, as the step's retry policy allows").isEqualTo(3);
        assertThat(calls.get()).as("handler calls: one per attempt").isEqualTo(attempts);
    }
}
