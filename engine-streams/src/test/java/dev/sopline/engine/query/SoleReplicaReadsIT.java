package dev.sopline.engine.query;

import dev.sopline.engine.api.secret.EngineSecret;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.github.f4b6a3.ulid.UlidCreator;
import dev.sopline.engine.api.query.EngineQueryKey;
import dev.sopline.engine.api.topic.EngineTopics;
import dev.sopline.engine.decision.CallbackIds;
import dev.sopline.engine.runtime.EngineSettings;
import dev.sopline.engine.topology.EngineConfig;
import dev.sopline.engine.topology.EngineTopology;
import dev.sopline.testing.SharedKafka;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A replica that is the only one (no advertised endpoint, as in the standalone) reads an instance from the store of
 * the one partition its commands are on, not from every partition's: an instance read is a store lookup, and a
 * partition that is not ready makes the read unavailable rather than "absent".
 */
class SoleReplicaReadsIT {

    @Test
    void shouldReadAnInstanceAndItsHistoryFromThePartitionItsCommandsAreOn(@TempDir Path stateDir) throws Exception {
        EngineSettings settings = EngineSettings.fromEnvironment(Map.of("SOP_ENGINE_APPLICATION_ID", "sole-replica-reads"))
                .withBootstrapServers(SharedKafka.bootstrapServers())
                .withStateDir(stateDir);
        int partitions;
        String keysTopic = "sole-replica-keys";
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, settings.bootstrapServers()))) {
            EngineTopics.ensure(admin, settings.partitions(), settings.topicPartitions(), settings.replication());
            partitions = EngineTopics.partitions(admin, EngineTopics.COMMANDS);
            // Where a producer puts a record with each id: the partition its commands are on, had it the commands' partitions.
            admin.createTopics(List.of(new NewTopic(keysTopic, partitions, settings.replication()))).all().get(30, TimeUnit.SECONDS);
        }
        List<Integer> asked = new ArrayList<>();
        Properties properties = settings.streamsProperties();
        // Only the stores are read here: the commands other tests left on the shared broker are not decided again.
        properties.put(StreamsConfig.consumerPrefix(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG), "latest");
        KafkaStreams streams = new KafkaStreams(EngineTopology.build(new EngineConfig(Duration.ofMillis(100), new CallbackIds(EngineSecret.resolve(null, settings.bootstrapServers())))),
                properties) {
            @Override
            public <T> T store(StoreQueryParameters<T> parameters) {
                asked.add(parameters.partition());
                return super.store(parameters);
            }
        };
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                settings.bootstrapServers()), new StringSerializer(), new StringSerializer())) {
            streams.start();
            await().atMost(Duration.ofSeconds(60)).until(() -> streams.state() == KafkaStreams.State.RUNNING);
            RoutingEngineReader reader = new RoutingEngineReader(streams, null, new EngineQueries(streams), partitions, EngineQueryKey.of(new byte[32]));

            for (int i = 0; i < 12; i++) {
                String id = UlidCreator.getMonotonicUlid().toString();
                int partition = producer.send(new ProducerRecord<>(keysTopic, id, id)).get(30, TimeUnit.SECONDS).partition();
                asked.clear();

                assertThat(reader.instance("default", id)).isEmpty();
                assertThat(reader.history("default", id, null, 10).items()).isEmpty();

                assertThat(asked).as("partitions asked for instance %s", id).containsOnly(partition);
            }
        } finally {
            streams.close(Duration.ofSeconds(10));
        }
    }
}
