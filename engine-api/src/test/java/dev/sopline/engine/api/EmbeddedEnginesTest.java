package dev.sopline.engine.api;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EmbeddedEnginesTest {

    @Test
    void shouldNameTheRemoteSettingWhenNoEngineIsOnTheClassPath() {
        // engine-api's own tests run without the engine module, as a gateway reading remote replicas does
        assertThatThrownBy(() -> EmbeddedEngines.start(Map.of(), "localhost:9092", Path.of("unused"), new SimpleMeterRegistry(), DecisionListener.NONE))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("engine-streams")
                .hasMessageContaining("SOP_ENGINE_QUERY_URLS");
    }
}
