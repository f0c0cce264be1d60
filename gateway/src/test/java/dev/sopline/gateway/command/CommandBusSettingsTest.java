package dev.sopline.gateway.command;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.Test;

class CommandBusSettingsTest {

    @Test
    void shouldSendALoneCommandAtOnceAndBatchTheCommandsWaitingBehindTheRequestInFlight() {
        Map<String, Object> settings = CommandBus.producerSettings("localhost:9092");

        assertThat(settings).containsEntry(ProducerConfig.LINGER_MS_CONFIG, 0)
                .containsEntry(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1)
                .containsEntry(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    }
}
