package dev.sopline.engine.it;

import dev.sopline.engine.api.secret.EngineSecret;
import dev.sopline.engine.api.topic.EngineTopics;
import dev.sopline.engine.decision.CallbackIds;
import dev.sopline.engine.runtime.EngineSettings;
import dev.sopline.engine.topology.EngineConfig;
import dev.sopline.engine.topology.EngineTopology;
import dev.sopline.testing.SharedKafka;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.streams.Topology;

/** The engine on the test JVM's shared broker, for tests that run its topology in a {@code KafkaStreams} of their own. */
final class SharedKafkaEngine {

    private SharedKafkaEngine() {}

    /** The engine's settings from the given environment, on the shared broker, with the given state directory. */
    static EngineSettings settings(Path stateDir, Map<String, String> environment) {
        return EngineSettings.fromEnvironment(environment)
                .withBootstrapServers(SharedKafka.bootstrapServers())
                .withStateDir(stateDir);
    }

    /** Makes the engine's topics if they are missing, and answers how many partitions its command topic has. */
    static int commandPartitions(EngineSettings settings) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, settings.bootstrapServers()))) {
            EngineTopics.ensure(admin, settings.partitions(), settings.topicPartitions(), settings.replication());
            return EngineTopics.partitions(admin, EngineTopics.COMMANDS);
        }
    }

    /** The engine's topology under the engines' secret kept in the broker. */
    static Topology topology(EngineSettings settings) {
        return EngineTopology.build(new EngineConfig(Duration.ofMillis(100), new CallbackIds(EngineSecret.resolve(null, settings.bootstrapServers()))));
    }
}
