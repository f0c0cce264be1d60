package dev.sopline.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.sopline.testing.SharedKafka;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A team's worker fails a step for good; once the cause is fixed, the SDK's client retries the instance, and it completes. */
class RetryClientIT {

    private final Platform platform = Platform.get();

    @Test
    void shouldRetryAFailedInstanceThroughTheSdkClient() throws Exception {
        platform.register(Platform.oneStepProcess("retried-by-sdk", "ledger.post"));
        AtomicInteger calls = new AtomicInteger();
        try (SopWorker worker = SopWorker.builder().kafka(SharedKafka.bootstrapServers()).group("ledger-retry")
                .handle("ledger.post", step -> {
                    if (calls.incrementAndGet() == 1) {
                        throw StepFailure.permanent("ledger_closed", "The ledger is closed for the night");
                    }
                    return Map.of("result", "posted");
                }).start()) {
            String id = platform.start("retried-by-sdk", Map.of("n", 1));
            await().atMost(Duration.ofSeconds(30)).until(() -> "failed".equals(platform.instance("retried-by-sdk", id).path("state").asString()));
            SopInstances instances = SopInstances.http(platform.baseUrl(), Platform.TOKEN);

            Map<String, Object> retried = instances.retry("retried-by-sdk", id);

            assertThat(retried.get("state")).isIn("running", "waiting", "completed");
            await().atMost(Duration.ofSeconds(30)).until(() -> "completed".equals(platform.instance("retried-by-sdk", id).path("state").asString()));
            assertThat(platform.instance("retried-by-sdk", id).path("steps").get(0).path("attempt").asInt()).isEqualTo(2);
            assertThatThrownBy(() -> instances.retry("retried-by-sdk", id))
                    .isInstanceOfSatisfying(SopInstances.Refused.class, refused -> {
                        assertThat(refused.status()).isEqualTo(422);
                        assertThat(refused.error()).isEqualTo("invalid_transition");
                    });
        }
    }
}
