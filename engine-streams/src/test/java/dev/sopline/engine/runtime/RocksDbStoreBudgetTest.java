package dev.sopline.engine.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Materialized;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RocksDbStoreBudgetTest {

    @TempDir
    Path stateDir;

    private static final String STORE = "instances-store";

    @Test
    void aStoreMadeWithTheEnginesSettingsGetsSmallMemtablesAndABlockCacheOfItsOwn() throws IOException {
        StreamsBuilder builder = new StreamsBuilder();
        builder.table("instances", Consumed.with(Serdes.String(), Serdes.String()), Materialized.as(STORE));
        Properties props = EngineSettings.fromEnvironment(Map.of()).streamsProperties();
        // Exactly-once only slows the test driver down; the stores are made the same either way.
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.AT_LEAST_ONCE);
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());

        try (TopologyTestDriver driver = new TopologyTestDriver(builder.build(), props)) {
            driver.createInputTopic("instances", new StringSerializer(), new StringSerializer()).pipeInput("instance-1", "{}");

            assertThat(optionsRocksDbWroteDown()).contains("write_buffer_size=" + 4 * 1024 * 1024).contains("max_write_buffer_number=2");
            assertThat(blockCacheCapacity(driver)).isEqualTo(4.0 * 1024 * 1024);
        }
    }

    /** The options RocksDB wrote down for the store as it opened it: what it really runs with. */
    private String optionsRocksDbWroteDown() throws IOException {
        try (Stream<Path> files = Files.walk(stateDir)) {
            Path latest = files.filter(file -> file.getParent().getFileName().toString().equals(STORE))
                    .filter(file -> file.getFileName().toString().startsWith("OPTIONS-"))
                    .max(Comparator.comparing(Path::toString)).orElseThrow();
            return Files.readString(latest);
        }
    }

    /** The block cache's capacity as RocksDB reports it to Kafka Streams' metrics (the file above leaves it out). */
    private static double blockCacheCapacity(TopologyTestDriver driver) {
        return driver.metrics().values().stream()
                .filter(metric -> metric.metricName().name().equals("block-cache-capacity"))
                .filter(metric -> STORE.equals(metric.metricName().tags().get("rocksdb-state-id")))
                .map(metric -> ((Number) metric.metricValue()).doubleValue()).findFirst().orElseThrow();
    }
}
