package dev.sopline.standalone;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.MetadataVersion;

/**
 * A real single-node Kafka broker in KRaft mode (broker and controller in one process), from the Kafka Maven
 * artifacts, with its log under {@code $SOP_DATA_DIR/kafka}. The log directory is formatted once, so a restart on
 * the same data directory keeps every topic and so every process, instance and token.
 */
public final class EmbeddedBroker implements AutoCloseable {

    /** Partitions of the broker's own topics for group offsets and transactions (see {@link #start}). */
    static final int INTERNAL_TOPIC_PARTITIONS = 4;

    private final KafkaRaftServer server;
    private final String bootstrapServers;

    private EmbeddedBroker(KafkaRaftServer server, String bootstrapServers) {
        this.server = server;
        this.bootstrapServers = bootstrapServers;
    }

    public static EmbeddedBroker start(Path dataDir, int port, int controllerPort) throws Exception {
        Path logDir = dataDir.resolve("kafka").toAbsolutePath();
        Files.createDirectories(logDir);
        Properties props = new Properties();
        props.put("process.roles", "broker,controller");
        props.put("node.id", "1");
        props.put("controller.quorum.voters", "1@localhost:" + controllerPort);
        props.put("listeners", "PLAINTEXT://localhost:" + port + ",CONTROLLER://localhost:" + controllerPort);
        props.put("advertised.listeners", "PLAINTEXT://localhost:" + port);
        props.put("controller.listener.names", "CONTROLLER");
        props.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        props.put("inter.broker.listener.name", "PLAINTEXT");
        props.put("log.dirs", logDir.toString());
        props.put("offsets.topic.replication.factor", "1");
        props.put("transaction.state.log.replication.factor", "1");
        props.put("transaction.state.log.min.isr", "1");
        props.put("share.coordinator.state.topic.replication.factor", "1");
        props.put("share.coordinator.state.topic.min.isr", "1");
        props.put("group.initial.rebalance.delay.ms", "0");
        // The groups' and transactions' internal topics get 50 partitions each by default, made on first use, opened
        // and recovered (after a kill -9) at every start: a start's worth of work for one node with a few groups. A
        // data dir made before keeps its partitions, as the broker reads their number from the topic, not from here.
        props.put("offsets.topic.num.partitions", String.valueOf(INTERNAL_TOPIC_PARTITIONS));
        props.put("transaction.state.log.num.partitions", String.valueOf(INTERNAL_TOPIC_PARTITIONS));
        // After a kill -9 the controller holds the broker's previous registration until its session times out and
        // refuses the new one meanwhile (9 s by default). The node is its own controller, so its heartbeats never
        // cross a network; what can delay them is a starved CPU, and at 3 s a saturated 2-core machine made the
        // broker fence itself under load. 6 s keeps four heartbeats of slack and still saves 3 s of each restart.
        props.put("broker.session.timeout.ms", "6000");
        props.put("broker.heartbeat.interval.ms", "1500");
        // The log cleaner's map of keys (for compacted topics: the changelogs, offsets, transactions) is one heap array
        // of this size, held for the broker's life: Kafka's default, 128 MiB, was half of the platform's live heap. 16 MiB
        // maps about 630,000 keys per pass; a partition with more is cleaned in several passes (Kafka cleans part of a
        // segment at a time since 0.10.1).
        props.put("log.cleaner.dedupe.buffer.size", String.valueOf(16 * 1024 * 1024));
        // A transaction's first write to a partition is checked with its coordinator, and right after the engine commits,
        // while the commit's markers are still being written (a few milliseconds), that check answers
        // CONCURRENT_TRANSACTIONS: the broker holds the write and checks again after this backoff. At Kafka's 20 ms,
        // the engine's output (one request in flight) could stand still for 20 ms after nearly every commit.
        props.put("add.partitions.to.txn.retry.backoff.ms", "1");
        BrokerThreads threads = BrokerThreads.ofThisMachine();
        props.put("num.network.threads", String.valueOf(threads.network()));
        props.put("num.io.threads", String.valueOf(threads.requestHandlers()));
        props.put("auto.create.topics.enable", "false");
        props.put("num.partitions", "1");
        KafkaConfig config = KafkaConfig.fromProps(props, false);
        if (!Files.exists(logDir.resolve("meta.properties"))) {
            format(config, logDir);
        }
        KafkaRaftServer server = new KafkaRaftServer(config, Time.SYSTEM);
        server.startup();
        return new EmbeddedBroker(server, bootstrapServers(port));
    }

    private static void format(KafkaConfig config, Path logDir) throws Exception {
        ByteArrayOutputStream output = new ByteArrayOutputStream();
        new Formatter()
                .setPrintStream(new PrintStream(output, true, StandardCharsets.UTF_8))
                .setNodeId(config.nodeId())
                .setClusterId(Uuid.randomUuid().toString())
                .setDirectories(List.of(logDir.toString()))
                .setMetadataLogDirectory(logDir.toString())
                .setControllerListenerName("CONTROLLER")
                .setReleaseVersion(MetadataVersion.LATEST_PRODUCTION)
                .run();
    }

    /** Starts the broker on a thread of its own; the future fails with what stopped it. */
    public static CompletableFuture<EmbeddedBroker> startAsync(Path dataDir, int port, int controllerPort) {
        CompletableFuture<EmbeddedBroker> started = new CompletableFuture<>();
        Thread starting = new Thread(() -> {
            try {
                started.complete(start(dataDir, port, controllerPort));
            } catch (Throwable failure) {
                started.completeExceptionally(failure);
            }
        }, "embedded-broker-start");
        starting.start();
        return started;
    }

    /** Closes the broker once it has started; nothing to do if it never did. */
    static AutoCloseable closerOf(CompletableFuture<EmbeddedBroker> starting) {
        return () -> {
            EmbeddedBroker started = starting.exceptionally(failure -> null).join();
            if (started != null) {
                started.close();
            }
        };
    }

    static String bootstrapServers(int port) {
        return "localhost:" + port;
    }

    public String bootstrapServers() {
        return bootstrapServers;
    }

    @Override
    public void close() {
        server.shutdown();
        server.awaitShutdown();
    }
}
