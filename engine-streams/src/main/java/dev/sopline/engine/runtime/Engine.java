package dev.sopline.engine.runtime;

import dev.sopline.engine.decision.UlidGenerator;
import dev.sopline.engine.query.EngineQueries;
import dev.sopline.engine.topology.EngineConfig;
import dev.sopline.engine.topology.EngineTopics;
import dev.sopline.engine.topology.EngineTopology;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** One engine replica: creates missing topics, runs the topology, and answers queries from its stores. */
public final class Engine implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Engine.class);

    private final EngineSettings settings;
    private final KafkaStreams streams;
    private final EngineQueries queries;

    private Engine(EngineSettings settings, KafkaStreams streams) {
        this.settings = settings;
        this.streams = streams;
        this.queries = new EngineQueries(streams);
    }

    public static Engine start(EngineSettings settings) {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, settings.bootstrapServers()))) {
            EngineTopics.ensure(admin, settings.partitions(), settings.replication());
        }
        KafkaStreams streams = new KafkaStreams(
                EngineTopology.build(new EngineConfig(settings.timerInterval(), new UlidGenerator())), settings.streamsProperties());
        streams.setUncaughtExceptionHandler(error -> {
            LOG.error("Engine stream thread failed; replacing it", error);
            return org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.REPLACE_THREAD;
        });
        streams.start();
        LOG.info("Engine started: application {} on {}, commit interval {} ms, state in {}", settings.applicationId(),
                settings.bootstrapServers(), settings.commitInterval().toMillis(), settings.stateDir());
        return new Engine(settings, streams);
    }

    public boolean isRunning() {
        return streams.state() == KafkaStreams.State.RUNNING;
    }

    public KafkaStreams.State state() {
        return streams.state();
    }

    public EngineQueries queries() {
        return queries;
    }

    public EngineSettings settings() {
        return settings;
    }

    /** Commits, leaves the group so the other replicas take over the partitions at once, and stops. */
    @Override
    public void close() {
        streams.close(CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP)
                .withTimeout(Duration.ofSeconds(30)));
    }

    /** Closes without the chance to commit, as a crash would, for tests of recovery. */
    public void closeAbruptly() {
        streams.close(Duration.ZERO);
    }
}
