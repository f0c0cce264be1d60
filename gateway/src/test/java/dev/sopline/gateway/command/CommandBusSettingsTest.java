package dev.sopline.gateway.command;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.Test;

class CommandBusSettingsTest {

    @Test
    void shouldSendALoneCommandAtOnceAndBatchTheCommandsWaitingBehindTheRequestInFlight() {
        Map<String, Object> settings = CommandBus.producerSettings("localhost:9092", Duration.ofSeconds(10));

        assertThat(settings).containsEntry(ProducerConfig.LINGER_MS_CONFIG, 0)
                .containsEntry(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1)
                .containsEntry(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    }

    @Test
    void shouldWaitForTheBrokersMetadataNoLongerThanTheCommandTimeout() {
        assertThat(CommandBus.producerSettings("localhost:9092", Duration.ofSeconds(10)))
                .containsEntry(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000L);
    }
}
