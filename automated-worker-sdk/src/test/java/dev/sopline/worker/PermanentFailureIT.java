package dev.sopline.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sopline.testing.SharedKafka;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** {@code StepFailure.permanent}: the step fails after one attempt, where a plain failure is retried three times. */
class PermanentFailureIT {

    private final Platform platform = Platform.get();

    @Test
    void shouldFailAfterOneAttemptWhenAKafkaHandlerThrowsAPermanentFailure() {
        platform.register(Platform.oneStepProcess("declined-kafka", "cards.kafka"));
        AtomicInteger calls = new AtomicInteger();
        try (SopWorker worker = SopWorker.builder().kafka(SharedKafka.bootstrapServers()).group("cards-kafka")
                .handle("cards.kafka", declining(calls)).start()) {
            assertFailedAfterOneAttempt("declined-kafka", platform.start("declined-kafka", Map.of("n", 1)), calls);
        }
    }

    @Test
    void shouldFailAfterOneAttemptWhenAnHttpHandlerThrowsAPermanentFailure() {
        platform.register(Platform.oneStepProcess("declined-http", "cards.http"));
        AtomicInteger calls = new AtomicInteger();
        try (SopWorker worker = SopWorker.builder().http(platform.baseUrl(), Platform.TOKEN)
                .handle("cards.http", declining(calls)).start()) {
            assertFailedAfterOneAttempt("declined-http", platform.start("declined-http", Map.of("n", 1)), calls);
        }
    }

    private static StepHandler declining(AtomicInteger calls) {
        return step -> {
            calls.incrementAndGet();
            throw StepFailure.permanent("card_declined", "The card was declined");
        };
    }

    private void assertFailedAfterOneAttempt(String process, String id, AtomicInteger calls) {
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(platform.instance(process, id).path("state").asString()).isEqualTo("failed"));
        JsonNode instance = platform.instance(process, id);
        assertThat(instance.path("error").path("code").asString()).isEqualTo("card_declined");
        assertThat(instance.path("steps").get(0).path("attempt").asInt()).as("attempts").isEqualTo(1);
        assertThat(instance.path("steps").get(0).path("error").path("retryable").asBoolean(true)).isFalse();
        assertThat(calls.get()).as("handler calls").isEqualTo(1);
    }
}
