package dev.sopline.engine.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sopline.engine.topology.WorkspaceEventTopics;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class EngineSettingsTest {

    @Test
    void shouldWriteEventsToSopEventsOnlyWhenTopicPerWorkspaceIsNotSet() {
        Properties streams = EngineSettings.fromEnvironment(Map.of()).streamsProperties();

        assertThat(WorkspaceEventTopics.from(asMap(streams))).isEmpty();
    }

    @Test
    void shouldHandTheTopologyTheTopicPerWorkspaceOptionFromTheEnvironment() {
        Properties streams = EngineSettings.fromEnvironment(Map.of("SOP_EVENTS_TOPIC_PER_WORKSPACE", "true")).streamsProperties();

        assertThat(WorkspaceEventTopics.from(asMap(streams))).isPresent();
    }

    /** The application's config as a processor's context hands it over. */
    private static Map<String, Object> asMap(Properties properties) {
        Map<String, Object> map = new HashMap<>();
        properties.forEach((key, value) -> map.put((String) key, value));
        return map;
    }
}
