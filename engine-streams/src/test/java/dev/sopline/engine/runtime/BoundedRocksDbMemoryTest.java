package dev.sopline.engine.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Materialized;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BoundedRocksDbMemoryTest {

    @TempDir
    Path stateDir;

    @Test
    void theEnginesStoresChargeTheirMemtablesToTheOneSharedCache() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.table("instances", Consumed.with(Serdes.String(), Serdes.String()), Materialized.as("instances-store"));
        Properties props = EngineSettings.fromEnvironment(Map.of()).streamsProperties();
        // Exactly-once only slows the test driver down; the stores are made the same either way.
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.AT_LEAST_ONCE);
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        props.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);
        long before = BoundedRocksDbMemory.CACHE.getUsage();

        try (TopologyTestDriver driver = new TopologyTestDriver(builder.build(), props)) {
            TestInputTopic<String, String> instances =
                    driver.createInputTopic("instances", new StringSerializer(), new StringSerializer());
            String value = "x".repeat(1024);
            for (int i = 0; i < 1_500; i++) {
                instances.pipeInput("instance-" + i, value);
            }

            assertThat(BoundedRocksDbMemory.CACHE.getUsage()).isGreaterThan(before)
                    .isLessThanOrEqualTo(BoundedRocksDbMemory.TOTAL_BYTES);
        }
    }
}
