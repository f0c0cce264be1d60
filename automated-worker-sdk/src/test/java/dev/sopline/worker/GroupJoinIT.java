package dev.sopline.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sopline.testing.SharedKafka;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A member joining a group takes partitions only from those who give them up: the steps of the partitions that stay
 * with their member run on, uninterrupted, and once (cooperative rebalancing).
 */
class GroupJoinIT {

    private final Platform platform = Platform.get();

    @Test
    void shouldLetARunningStepFinishOnceWhileAnotherMemberJoinsTheGroup() throws Exception {
        platform.register(Platform.oneStepProcess("steady-flow", "steady.work"));
        platform.register(Platform.oneStepProcess("joining-flow", "joining.work"));
        AtomicInteger calls = new AtomicInteger();
        AtomicBoolean interrupted = new AtomicBoolean();
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        try (SopWorker steady = SopWorker.builder().kafka(SharedKafka.bootstrapServers()).group("join-workers")
                .workerId("steady-worker").handle("steady.work", step -> {
                    calls.incrementAndGet();
                    running.countDown();
                    try {
                        release.await();
                    } catch (InterruptedException e) {
                        interrupted.set(true);
                        throw e;
                    }
                    return Map.of("result", "once");
                }).start()) {
            String id = platform.start("steady-flow", Map.of("n", 1));
            await().atMost(Duration.ofSeconds(30)).until(() -> running.getCount() == 0);

            // Another team's worker in the same group: the group rebalances, and none of the steady worker's partitions move.
            try (SopWorker joining = SopWorker.builder().kafka(SharedKafka.bootstrapServers()).group("join-workers")
                    .workerId("joining-worker").handle("joining.work", step -> Map.of("result", "joined")).start()) {
                String other = platform.start("joining-flow", Map.of("n", 2));
                KafkaWorkerIT.awaitStableGroup("join-workers", 2);
                await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                        assertThat(platform.instance("joining-flow", other).path("state").asString()).isEqualTo("completed"));
                release.countDown();

                await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                        assertThat(platform.instance("steady-flow", id).path("state").asString()).isEqualTo("completed"));
            }
            assertThat(interrupted).as("the running step was interrupted by the rebalance").isFalse();
            assertThat(calls).as("handler calls for the one step").hasValue(1);
        }
    }
}
