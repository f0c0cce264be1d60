package dev.sopline.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sopline.testing.SharedKafka;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * A handler that hangs without heartbeats: the engine times its attempt out and hands out a new one, which the same
 * worker runs, while the other steps keep flowing past the hung one.
 */
class HungHandlerIT {

    private final Platform platform = Platform.get();

    @Test
    void shouldRunTheNextAttemptInTheSameWorkerAndKeepOtherStepsFlowingWhileAHandlerHangs() throws Exception {
        platform.register(Platform.oneStepProcess("hung-flow", "hung.work").replace("      run: hung.work\n", """
                      run: hung.work
                      timeout: 2s
                      heartbeat_timeout: 2s
                      retry:
                        max_attempts: 2
                        initial_backoff: 1s
                """));
        CountDownLatch hung = new CountDownLatch(1);
        CountDownLatch never = new CountDownLatch(1);
        try (SopWorker worker = SopWorker.builder().kafka(SharedKafka.bootstrapServers()).group("hung-workers").concurrency(2)
                .handle("hung.work", step -> {
                    if (((Number) step.input("n")).intValue() == 0 && step.attempt() == 1) {
                        hung.countDown();
                        while (true) {
                            // Deaf to interrupts, as a handler stuck in a native call would be.
                            try {
                                never.await();
                            } catch (InterruptedException ignored) {
                                // keeps hanging
                            }
                            if (never.getCount() == 0) {
                                return Map.of("result", "released");
                            }
                        }
                    }
                    return Map.of("result", "attempt " + step.attempt());
                }).start()) {
            String stuck = platform.start("hung-flow", Map.of("n", 0));
            assertThat(hung.await(30, TimeUnit.SECONDS)).as("the first attempt hangs").isTrue();
            List<String> others = new ArrayList<>();
            for (int n = 1; n <= 5; n++) {
                others.add(platform.start("hung-flow", Map.of("n", n)));
            }

            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                for (String other : others) {
                    assertThat(platform.instance("hung-flow", other).path("state").asString()).isEqualTo("completed");
                }
                JsonNode instance = platform.instance("hung-flow", stuck);
                assertThat(instance.path("state").asString()).isEqualTo("completed");
                assertThat(instance.path("steps").get(0).path("outputs").path("result").asString()).isEqualTo("attempt 2");
            });
            assertThat(never.getCount()).as("the first handler is still hung").isEqualTo(1);
        } finally {
            never.countDown();
        }
    }
}
