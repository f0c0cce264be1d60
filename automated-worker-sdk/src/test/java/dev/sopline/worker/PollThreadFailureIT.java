package dev.sopline.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import dev.sopline.testing.CapturedLog;
import dev.sopline.testing.SharedKafka;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A defect on a Kafka worker's poll thread ends the worker, but with an ERROR that says so, never silently. */
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
}
