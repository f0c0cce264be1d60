package dev.sopline.engine.topology;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sopline.engine.decision.CallbackIds;
import java.time.Duration;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.streams.TopologyDescription;
import org.junit.jupiter.api.Test;

/**
 * Store names are part of the state on disk and name the changelog topics: renaming one loses its data. This test
 * makes a rename a deliberate act.
 */
class EngineTopologyNamesTest {

    @Test
    void shouldKeepTheStoreNamesOfTheStateOnDisk() {
        TopologyDescription description = EngineTopology.build(new EngineConfig(Duration.ofMillis(100), new CallbackIds(EngineHarness.SECRET))).describe();

        Set<String> stores = new TreeSet<>();
        description.subtopologies().forEach(subtopology -> subtopology.nodes().forEach(node -> {
            if (node instanceof TopologyDescription.Processor processor) {
                stores.addAll(processor.stores());
            }
        }));
        description.globalStores().forEach(global -> stores.addAll(global.processor().stores()));

        assertThat(stores).containsExactly("callbacks", "definitions", "finished-instances", "idempotency", "instance-history",
                "instance-index", "instances", "metric-counters", "metric-window", "pending-steps", "processes", "timers", "waiting-starts");
    }

    @Test
    void shouldDecideFromTheCommandTopicAlone() {
        TopologyDescription description = EngineTopology.build(new EngineConfig(Duration.ofMillis(100), new CallbackIds(EngineHarness.SECRET))).describe();

        Set<String> inputs = new TreeSet<>();
        description.subtopologies().forEach(subtopology -> subtopology.nodes().forEach(node -> {
            if (node instanceof TopologyDescription.Source source) {
                inputs.addAll(source.topicSet());
            }
        }));

        assertThat(inputs).as("one log per partition: worker results arrive through it too").containsExactly("sop.commands");
    }
}
