package dev.sopline.engine.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sopline.engine.topology.WorkspaceEventTopics;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TopologyDescription.Source;
import org.junit.jupiter.api.Test;

class EngineSettingsTest {

    @Test
    void shouldRequireResultKeysOnlyWhenToldTo() {
        assertThat(EngineSettings.fromEnvironment(Map.of()).resultKeysRequired()).isFalse();
        assertThat(EngineSettings.fromEnvironment(Map.of("SOP_RESULT_KEYS", "optional")).resultKeysRequired()).isFalse();
        assertThat(EngineSettings.fromEnvironment(Map.of("SOP_RESULT_KEYS", "required")).resultKeysRequired()).isTrue();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> EngineSettings.fromEnvironment(Map.of("SOP_RESULT_KEYS", "yes")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("SOP_RESULT_KEYS");
    }

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

    @Test
    void shouldSendEachProducersRecordsAtOnceWithOneRequestInFlightSoThatRecordsWaitingBehindItGoTogether() {
        EngineSettings settings = EngineSettings.fromEnvironment(Map.of());

        for (Properties props : List.of(settings.streamsProperties(), ResultRelay.properties(settings))) {
            assertThat(props.get(StreamsConfig.producerPrefix(ProducerConfig.LINGER_MS_CONFIG))).isEqualTo(0);
            assertThat(props.get(StreamsConfig.producerPrefix(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION))).isEqualTo(1);
        }
    }

    @Test
    void shouldLetTheIdleResultRelayWaitOnItsPollAsLongAsKafkaDoesWhileTheEngineWaitsTenMillisecondsForItsCommits() {
        EngineSettings settings = EngineSettings.fromEnvironment(Map.of());

        assertThat(ResultRelay.properties(settings).get(StreamsConfig.POLL_MS_CONFIG)).as("the relay: idle, ten passes a second")
                .isEqualTo(100);
        assertThat(settings.streamsProperties().get(StreamsConfig.POLL_MS_CONFIG)).as("the engine: its commits come on time")
                .isEqualTo(10L);
    }

    @Test
    void shouldNotIdleTasksWhoseOnlyInputIsOnePartition() {
        EngineSettings settings = EngineSettings.fromEnvironment(Map.of());

        // Safe because the engine decides from sop.commands alone (EngineTopologyNamesTest) and the relay reads one topic.
        assertThat(ResultRelay.topology().describe().subtopologies()).allSatisfy(subtopology -> assertThat(subtopology.nodes())
                .filteredOn(node -> node instanceof Source)
                .singleElement()
                .satisfies(source -> assertThat(((Source) source).topicSet()).hasSize(1)));
        for (Properties props : List.of(settings.streamsProperties(), ResultRelay.properties(settings))) {
            assertThat(props.get(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG)).isEqualTo(StreamsConfig.MAX_TASK_IDLE_MS_DISABLED);
        }
    }

    @Test
    void shouldGiveThePublicTopicsTheEnginesPartitionCountUnlessTheirOwnIsSet() {
        assertThat(EngineSettings.fromEnvironment(Map.of())).extracting(EngineSettings::partitions, EngineSettings::topicPartitions)
                .containsExactly(6, 6);
        assertThat(EngineSettings.fromEnvironment(Map.of("SOP_ENGINE_PARTITIONS", "12")))
                .extracting(EngineSettings::partitions, EngineSettings::topicPartitions).containsExactly(12, 12);
        assertThat(EngineSettings.fromEnvironment(Map.of("SOP_ENGINE_PARTITIONS", "1", "SOP_TOPIC_PARTITIONS", "6")))
                .extracting(EngineSettings::partitions, EngineSettings::topicPartitions).containsExactly(1, 6);
    }

    @Test
    void shouldGiveTheEngineInTheGatewaysJvmOnePartitionPerStreamThreadAndThePublicTopicsSix() {
        assertThat(EngineSettings.forOneReplica(Map.of())).extracting(EngineSettings::partitions, EngineSettings::topicPartitions)
                .containsExactly(1, 6);
        assertThat(EngineSettings.forOneReplica(Map.of("SOP_TOPIC_PARTITIONS", "12")))
                .extracting(EngineSettings::partitions, EngineSettings::topicPartitions).containsExactly(1, 12);
        assertThat(EngineSettings.forOneReplica(Map.of("SOP_ENGINE_THREADS", "4")))
                .as("a partition per stream thread").extracting(EngineSettings::partitions).isEqualTo(4);
        assertThat(EngineSettings.forOneReplica(Map.of("SOP_ENGINE_PARTITIONS", "6")))
                .as("set, the count is the operator's, and the public topics follow it as on a replica")
                .extracting(EngineSettings::partitions, EngineSettings::topicPartitions).containsExactly(6, 6);
        assertThat(EngineSettings.forOneReplica(Map.of("SOP_ENGINE_ADVERTISED_ENDPOINT", "engine-1:7070")))
                .as("one of several replicas").extracting(EngineSettings::partitions, EngineSettings::topicPartitions).containsExactly(6, 6);
        assertThat(EngineSettings.forOneReplica(Map.of("SOP_ENGINE_PARTITIONS", "2", "SOP_TOPIC_PARTITIONS", "3")))
                .extracting(EngineSettings::partitions, EngineSettings::topicPartitions).containsExactly(2, 3);
    }

    @Test
    void shouldRefuseToStartWithNoStreamThreadOrNoPartitionNamingTheSettingThatWasGiven() {
        assertThatThrownBy(() -> EngineSettings.forOneReplica(Map.of("SOP_ENGINE_THREADS", "0")))
                .as("in the gateway's JVM the partitions follow the threads: the threads are named")
                .isInstanceOf(IllegalArgumentException.class).hasMessage("Expected SOP_ENGINE_THREADS to be at least 1, but it is 0");
        assertThatThrownBy(() -> EngineSettings.fromEnvironment(Map.of("SOP_ENGINE_PARTITIONS", "0")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("SOP_ENGINE_PARTITIONS");
        assertThatThrownBy(() -> EngineSettings.fromEnvironment(Map.of("SOP_TOPIC_PARTITIONS", "-1")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("SOP_TOPIC_PARTITIONS");
    }

    @Test
    void shouldTellAReplicaWhoseCommandLogHasFewerPartitionsThanItWouldHaveMadeThatOnlySoManyWorkAtOnce() {
        EngineSettings replica = EngineSettings.fromEnvironment(Map.of());
        assertThat(replica.partitionShortfall(1)).hasValueSatisfying(message -> assertThat(message)
                .contains("sop.commands has 1 partition(s), fewer than this engine's 6").contains("at most 1 engine replica(s)"));
        assertThat(replica.partitionShortfall(6)).isEmpty();
        assertThat(EngineSettings.forOneReplica(Map.of()).partitionShortfall(6))
                .as("a standalone on the six partitions an earlier version made").isEmpty();
    }

    /** The application's config as a processor's context hands it over. */
    private static Map<String, Object> asMap(Properties properties) {
        Map<String, Object> map = new HashMap<>();
        properties.forEach((key, value) -> map.put((String) key, value));
        return map;
    }
}
