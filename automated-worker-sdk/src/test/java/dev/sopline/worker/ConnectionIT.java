package dev.sopline.worker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sopline.testing.SharedKafka;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A Kafka worker says whether it reached its broker, so that nothing reports "connected" to a broker that is not there. */
class ConnectionIT {

    @Test
    void shouldNotReportConnectedWhenNoBrokerAnswers() throws Exception {
        try (SopWorker worker = SopWorker.builder().kafka("localhost:1").group("nowhere").closeTimeout(Duration.ofSeconds(1))
                .handle("nowhere.work", step -> Map.of()).start()) {
            assertThat(worker.awaitConnected(Duration.ofSeconds(2))).isFalse();
            assertThat(worker.isRunning()).as("it keeps trying").isTrue();
        }
    }

    @Test
    void shouldReportConnectedOnceTheBrokerAnswers() throws Exception {
        try (SopWorker worker = SopWorker.builder().kafka(SharedKafka.bootstrapServers()).group("somewhere")
                .handle("somewhere.work", step -> Map.of()).start()) {
            assertThat(worker.awaitConnected(Duration.ofSeconds(30))).isTrue();
        }
    }
}
