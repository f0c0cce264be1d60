package dev.sopline.engine.api.topic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sopline.schemas.definition.StepType;
import dev.sopline.schemas.topic.Topics;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;

class EngineTopicsTest {

    @Test
    void shouldGiveTheEnginesOwnTopicsOneCountAndThePublicTopicsTheirOwn() {
        Map<String, Integer> partitions = EngineTopics.all(1, 6, (short) 1).stream()
                .collect(Collectors.toMap(NewTopic::name, NewTopic::numPartitions));

        assertThat(partitions).containsEntry(EngineTopics.COMMANDS, 1).containsEntry(EngineTopics.REPLIES, 1)
                .containsEntry(EngineTopics.CALLBACKS, 1);
        assertThat(partitions).containsEntry(Topics.STEP_RESULTS, 6).containsEntry(Topics.EVENTS, 6)
                .containsEntry(Topics.automatedSteps(Topics.DEFAULT_NAMESPACE), 6);
        for (StepType type : StepType.values()) {
            assertThat(partitions).containsEntry(Topics.stepReady(type), 6);
        }
        // Compacted topics read whole by every replica: one partition whatever the counts.
        assertThat(partitions).containsEntry(EngineTopics.DEFINITIONS, 1).containsEntry(EngineTopics.TOKENS, 1)
                .containsEntry(EngineTopics.WEBHOOKS, 1).containsEntry(EngineTopics.ENGINE_SECRET, 1);
    }
}
