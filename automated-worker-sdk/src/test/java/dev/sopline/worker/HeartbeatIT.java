package dev.sopline.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sopline.testing.SharedKafka;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** {@code step.heartbeat()} keeps a step past its timeout; a worker that falls silent loses the step to another. */
class HeartbeatIT {

    private final Platform platform = Platform.get();

    @Test
    void shouldKeepAKafkaStepAlivePastItsTimeoutWhileTheHandlerSendsHeartbeats() {
        platform.register(longStepProcess("long-kafka", "longwork.kafka"));
        try (SopWorker worker = SopWorker.builder().kafka(SharedKafka.bootstrapServers()).group("long-kafka")
                .handle("longwork.kafka", HeartbeatIT::workTwiceTheTimeoutWithHeartbeats).start()) {
            assertCompletedInItsFirstAttempt("long-kafka");
        }
    }

    @Test
    void shouldKeepAnHttpStepAlivePastItsTimeoutWhileTheHandlerSendsHeartbeats() {
        // Over HTTP the heartbeat carries no result key, its token is checked instead: it counts with keys required.
        platform.register(longStepProcess("long-http-beats", "longwork.httpbeats"));
        try (SopWorker worker = SopWorker.builder().http(platform.baseUrl(), Platform.TOKEN)
                .handle("longwork.httpbeats", HeartbeatIT::workTwiceTheTimeoutWithHeartbeats).start()) {
            assertCompletedInItsFirstAttempt("long-http-beats");
        }
    }

    /** Twice the 2 s timeout, sending a heartbeat every 400 ms. */
    private static Map<String, Object> workTwiceTheTimeoutWithHeartbeats(StepContext step) throws InterruptedException {
        long until = System.nanoTime() + Duration.ofSeconds(4).toNanos();
        while (System.nanoTime() < until) {
            step.heartbeat();
            new CountDownLatch(1).await(400, TimeUnit.MILLISECONDS);
        }
        return Map.of("result", "done");
    }

    private void assertCompletedInItsFirstAttempt(String process) {
        String id = platform.start(process, Map.of("n", 1));
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(platform.instance(process, id).path("state").asString()).isEqualTo("completed"));
        assertThat(platform.instance(process, id).path("steps").get(0).path("attempt").asInt()).isEqualTo(1);
    }

    @Test
    void shouldGiveTheStepToAnotherWorkerWhenTheFirstStopsSendingHeartbeats() throws Exception {
        platform.register(longStepProcess("long-http", "longwork.http"));
        CountDownLatch silentStarted = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        SopWorker silent = SopWorker.builder().http(platform.baseUrl(), Platform.TOKEN).concurrency(1)
                .handle("longwork.http", step -> {
                    silentStarted.countDown();
                    release.await();
                    return Map.of("result", "silent");
                }).start();
        SopWorker alive = null;
        try {
            String id = platform.start("long-http", Map.of("n", 1));
            assertThat(silentStarted.await(30, TimeUnit.SECONDS)).as("the first worker took the step").isTrue();
            // HTTP workers take no lease, so the other worker starts once the silent one's attempt has timed out.
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                    assertThat(platform.instance("long-http", id).path("steps").get(0).path("attempt").asInt()).isEqualTo(2));
            alive = SopWorker.builder().http(platform.baseUrl(), Platform.TOKEN)
                    .handle("longwork.http", step -> Map.of("result", "alive, attempt " + step.attempt())).start();

            await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                    assertThat(platform.instance("long-http", id).path("state").asString()).isEqualTo("completed"));
            JsonNode step = platform.instance("long-http", id).path("steps").get(0);
            assertThat(step.path("attempt").asInt()).isEqualTo(2);
            assertThat(step.path("outputs").path("result").asString()).isEqualTo("alive, attempt 2");
        } finally {
            release.countDown();
            silent.close();
            if (alive != null) {
                alive.close();
            }
        }
    }

    private static String longStepProcess(String name, String run) {
        return Platform.oneStepProcess(name, run).replace("      run: " + run + "\n", """
                      run: %s
                      timeout: 2s
                      heartbeat_timeout: 2s
                      retry:
                        max_attempts: 2
                        initial_backoff: 1s
                """.formatted(run));
    }
}
