package dev.sopline.standalone;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class TrainingRunTest {

    @Test
    void shouldTrainOnTheEmbeddedBrokerAndFreePortsWhateverTheEnvironmentSays() throws Exception {
        Map<String, String> env = Map.of(
                "KAFKA_BOOTSTRAP_SERVERS", "kafka.example.com:9092",
                "SOP_HTTP_PORT", "8080",
                "SOP_DATA_DIR", "/tmp/training");

        StandaloneSettings settings = StandaloneSettings.from(TrainingRun.environment(env));

        assertThat(settings.embeddedBroker()).as("the build must not write topics to the user's cluster").isTrue();
        assertThat(settings.httpPort()).isNotIn(0, 8080);
        assertThat(PortCheck.problems(settings.ports())).as("three different ports, free").isEmpty();
        assertThat(settings.dataDir()).hasToString("/tmp/training");
    }
}
