package dev.sopline.engine.runtime;

import dev.sopline.engine.api.query.EngineQueryKey;
import dev.sopline.engine.api.secret.EngineSecret;
import dev.sopline.engine.api.DecisionListener;
import dev.sopline.engine.api.EmbeddedEngine;
import dev.sopline.schemas.kafka.KafkaClientSecurity;
import dev.sopline.engine.decision.CallbackIds;
import dev.sopline.engine.decision.InstanceBudget;
import dev.sopline.engine.query.EngineQueries;
import dev.sopline.engine.api.query.EngineReader;
import dev.sopline.engine.query.QueryServer;
import dev.sopline.engine.query.RoutingEngineReader;
import dev.sopline.engine.topology.EngineConfig;
import dev.sopline.engine.api.topic.EngineTopics;
import dev.sopline.engine.topology.EngineTopology;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One engine replica: creates missing topics, runs the topology and the {@link ResultRelay} that feeds it worker
 * results, answers queries from its stores and, when it advertises an endpoint, serves the other replicas' queries.
 */
public final class Engine implements EmbeddedEngine {

    private static final Logger LOG = LoggerFactory.getLogger(Engine.class);

    private final EngineSettings settings;
    private final KafkaStreams streams;
    private final ResultRelay relay;
    private final EngineQueries queries;
    private final EngineReader reader;
    private final QueryServer queryServer;
    private final StreamThreadFailures threadFailures;
    private final EngineMetrics metrics;
    private final SoleDecider soleDecider;
    private final ProducedCommandLog commandLog;
    private final EngineQueryKey queryKey;

    private Engine(EngineSettings settings, KafkaStreams streams, ResultRelay relay, EngineQueries queries, EngineReader reader,
                   QueryServer queryServer, StreamThreadFailures threadFailures, EngineMetrics metrics, SoleDecider soleDecider,
                   ProducedCommandLog commandLog, EngineQueryKey queryKey) {
        this.settings = settings;
        this.streams = streams;
        this.relay = relay;
        this.queries = queries;
        this.reader = reader;
        this.queryServer = queryServer;
        this.threadFailures = threadFailures;
        this.metrics = metrics;
        this.soleDecider = soleDecider;
        this.commandLog = commandLog;
        this.queryKey = queryKey;
    }

    /**
     * Starts a replica whose metrics go to Micrometer's global registry, which a Spring Boot application (the gateway,
     * the standalone platform) feeds into its own registries, and so into {@code /actuator/prometheus}.
     */
    public static Engine start(EngineSettings settings) {
        return start(settings, Metrics.globalRegistry);
    }

    public static Engine start(EngineSettings settings, MeterRegistry registry) {
        return start(settings, registry, DecisionListener.NONE);
    }

    /** @param listener told of each reply and instance change as this replica decides it, in this JVM */
    public static Engine start(EngineSettings settings, MeterRegistry registry, DecisionListener listener) {
        RocksDbLibrary.loadInto(settings.stateDir());
        int commandPartitions;
        try (Admin admin = Admin.create(KafkaClientSecurity.secured(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, settings.bootstrapServers())))) {
            EngineTopics.ensure(admin, settings.partitions(), settings.topicPartitions(), settings.replication());
            commandPartitions = EngineTopics.partitions(admin, EngineTopics.COMMANDS);
        }
        settings.partitionShortfall(commandPartitions).ifPresent(LOG::warn);
        byte[] secret = EngineSecret.resolve(settings.engineSecret(), settings.bootstrapServers());
        CallbackIds callbackIds = new CallbackIds(secret).requiringResultKeys(settings.resultKeysRequired());
        EngineQueryKey queryKey = EngineQueryKey.of(secret);
        EngineMetrics metrics = new EngineMetrics(registry);
        ProducedCommandLog commandLog = new ProducedCommandLog(settings, callbackIds.commandSignature());
        if (settings.unsignedCommandsAccepted()) {
            LOG.warn("SOP_COMMAND_SIGNATURES=optional: unsigned commands on {} are taken as what they claim to be. Use it only while "
                    + "upgrading from a release that did not sign, and grant no worker Write on {} meanwhile", EngineTopics.COMMANDS, EngineTopics.COMMANDS);
        }
        KafkaStreams streams = new KafkaStreams(
                EngineTopology.build(new EngineConfig(settings.timerInterval(), callbackIds, EngineConfig.DEFAULT_FIRES_PER_PUNCTUATION,
                        new InstanceBudget(settings.instanceMaxBytes()))
                        .withRetention(settings.retention())
                        .withMetrics(metrics.commands())
                        .withListener(listener)
                        .withCommandLog(commandLog)
                        .withUnsignedCommandsAccepted(settings.unsignedCommandsAccepted())), settings.streamsProperties());
        StreamThreadFailures threadFailures = new StreamThreadFailures();
        // A failure Kafka Streams did not recover from itself: the thread is replaced, and health counts it, so a
        // thread that keeps failing on the same input turns the engine unhealthy instead of looping unseen.
        streams.setUncaughtExceptionHandler(error -> {
            threadFailures.record();
            LOG.error("Engine stream thread failed; replacing it", error);
            return StreamThreadExceptionResponse.REPLACE_THREAD;
        });
        EngineQueries queries = new EngineQueries(streams);
        SoleDecider soleDecider = new SoleDecider(streams, queries, commandPartitions);
        streams.setStateListener(soleDecider);
        metrics.bind(streams, queries, settings.bootstrapServers());
        EngineReader reader = new RoutingEngineReader(streams, settings.advertisedHost().orElse(null), queries, commandPartitions, queryKey);
        QueryServer server = null;
        // The server's health asks the engine, which exists once the relay has started too.
        AtomicReference<Engine> started = new AtomicReference<>();
        if (settings.advertisedHost().isPresent()) {
            try {
                server = QueryServer.start(settings.advertisedHost().get().port(), queries, reader, queryKey,
                        () -> started.get() != null && started.get().isHealthy());
            } catch (IOException e) {
                throw new IllegalStateException("Expected to serve queries on " + settings.advertisedEndpoint() + ", but " + e.getMessage(), e);
            }
        }
        streams.start();
        ResultRelay relay = ResultRelay.start(settings, threadFailures);
        LOG.info("Engine started: application {} on {}, commit interval {} ms, state in {}", settings.applicationId(),
                settings.bootstrapServers(), settings.commitInterval().toMillis(), settings.stateDir());
        Engine engine = new Engine(settings, streams, relay, queries, reader, server, threadFailures, metrics, soleDecider, commandLog, queryKey);
        started.set(engine);
        return engine;
    }

    @Override
    public boolean canServe() {
        return queries.serving().canServe();
    }

    /** Healthy: the topology and the result relay are both running. */
    public boolean isRunning() {
        return streams.state() == KafkaStreams.State.RUNNING && relay.isRunning();
    }

    /**
     * Whether the engine can make progress: the topology and the result relay are running (a rebalance is normal
     * work), and the stream threads are not dying again and again on the same input.
     */
    @Override
    public boolean isHealthy() {
        return isProgressing(streams.state()) && isProgressing(relay.state()) && !threadFailures.failingRepeatedly();
    }

    private static boolean isProgressing(KafkaStreams.State state) {
        return state == KafkaStreams.State.RUNNING || state == KafkaStreams.State.REBALANCING;
    }

    @Override
    public boolean decidesEveryCommand() {
        return soleDecider.decidesEveryCommand();
    }

    public KafkaStreams.State state() {
        return streams.state();
    }

    public KafkaStreams.State relayState() {
        return relay.state();
    }

    /** This replica's own stores. */
    public EngineQueries queries() {
        return queries;
    }

    /** Every replica's stores: each query goes to the owners of its data. */
    @Override
    public EngineReader reader() {
        return reader;
    }

    /** What callers of this replica's query endpoints show ({@link EngineQueryKey}). */
    public EngineQueryKey queryKey() {
        return queryKey;
    }

    public EngineSettings settings() {
        return settings;
    }

    /**
     * Commits, leaves the group so the other replicas take over the partitions at once, and stops. The relay and the
     * topology close side by side: each may wait on its group, and their waits need not add up.
     */
    @Override
    public void close() {
        stopQueries();
        CompletableFuture<Void> relayClosed = CompletableFuture.runAsync(relay::close, task -> new Thread(task, "engine-relay-close").start());
        streams.close(CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP)
                .withTimeout(Duration.ofSeconds(30)));
        relayClosed.join();
        commandLog.close();
        metrics.close();
    }

    /** Closes without the chance to commit, as a crash would, for tests of recovery. */
    public void closeAbruptly() {
        stopQueries();
        relay.closeAbruptly();
        streams.close(Duration.ZERO);
        commandLog.close(Duration.ZERO);
        metrics.close();
    }

    private void stopQueries() {
        if (queryServer != null) {
            queryServer.close();
        }
    }
}
