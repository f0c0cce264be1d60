package dev.sopline.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import dev.sopline.testing.CapturedLog;
import dev.sopline.testing.SharedKafka;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * A defect on a Kafka worker's poll thread ends the worker, but with an ERROR that says so, never silently, and the
 * steps it was running go to the other members of its group.
 */
class PollThreadFailureIT {

    private final Platform platform = Platform.get();

    @Test
    void shouldLogAnErrorWhenThePollThreadStopsOnAnUnexpectedException() throws Exception {
        platform.register(Platform.oneStepProcess("poll-defect", "polldefect.work"));
        KafkaStepWorker worker = new KafkaStepWorker(SharedKafka.bootstrapServers(), "poll-defect-workers",
                StepTopics.forHandlers(Set.of("polldefect.work"), false), ready -> {
                    throw new IllegalStateException("a defect in the worker");
                }, null, 1, "defective-worker", null)
                .withHandlers(Map.of("polldefect.work", step -> Map.of("result", "never")));
        Thread thread = new Thread(worker, "defective-worker");
        try (CapturedLog log = CapturedLog.of(KafkaStepWorker.class)) {
            thread.start();
            platform.start("poll-defect", Map.of("n", 1));

            await().atMost(Duration.ofSeconds(30)).until(() -> !thread.isAlive());
            assertThat(log.messagesAtLeast(Level.ERROR)).singleElement()
                    .satisfies(message -> assertThat(message).contains("defective-worker", "stopped", "restart"));
            assertThat(log.events()).filteredOn(event -> event.getLevel() == Level.ERROR).singleElement()
                    .satisfies(event -> assertThat(event.getThrowableProxy().getMessage()).isEqualTo("a defect in the worker"));
        } finally {
            worker.stop(Duration.ofSeconds(1));
            thread.join(10_000);
        }
    }

    @Test
    void shouldLeaveTheStepItWasRunningToTheGroupWhenThePollThreadStops() throws Exception {
        platform.register(Platform.oneStepProcess("poll-crash", "pollcrash.work"));
        CountDownLatch running = new CountDownLatch(1);
        KafkaStepWorker defective = new KafkaStepWorker(SharedKafka.bootstrapServers(), "poll-crash-workers",
                StepTopics.forHandlers(Set.of("pollcrash.work"), false), ready -> {
                    if (((Number) ready.inputs().get("n")).intValue() == 2) {
                        throw new IllegalStateException("a defect in the worker");
                    }
                    return true;
                }, null, 2, "crashing-worker", null)
                .withHandlers(Map.of("pollcrash.work", step -> {
                    running.countDown();
                    new CountDownLatch(1).await(); // until the worker's end interrupts it
                    return Map.of("result", "never");
                }));
        Thread thread = new Thread(defective, "crashing-worker");
        try (CapturedLog log = CapturedLog.of(KafkaStepWorker.class)) {
            thread.start();
            String first = platform.start("poll-crash", Map.of("n", 1));
            await().atMost(Duration.ofSeconds(30)).until(() -> running.getCount() == 0);
            String second = platform.start("poll-crash", Map.of("n", 2));
            await().atMost(Duration.ofSeconds(30)).until(() -> !thread.isAlive());

            // The step the defective worker was running when its thread ended is not committed: another member runs it.
            try (SopWorker healthy = SopWorker.builder().kafka(SharedKafka.bootstrapServers()).group("poll-crash-workers")
                    .workerId("healthy-worker").handle("pollcrash.work", step -> Map.of("result", "done " + step.input("n"))).start()) {
                await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                    assertThat(platform.instance("poll-crash", first).path("state").asString()).isEqualTo("completed");
                    assertThat(platform.instance("poll-crash", second).path("state").asString()).isEqualTo("completed");
                });
            }
            JsonNode step = platform.instance("poll-crash", first).path("steps").get(0);
            assertThat(step.path("outputs").path("result").asString()).isEqualTo("done 1");
            assertThat(step.path("attempt").asInt()).as("the attempt the worker cut short was not reported as failed").isEqualTo(1);
        } finally {
            defective.stop(Duration.ofSeconds(1));
            thread.join(10_000);
        }
    }
}
