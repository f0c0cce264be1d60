package dev.sopline.benchmark.littlehorse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.MetadataVersion;

/**
 * LittleHorse as its standalone image runs it, a Kafka broker and a LittleHorse server, here in one JVM as the
 * platform runs with its embedded broker: the benchmark's side-by-side case starts it on a fresh directory, with the
 * broker set up as the platform's (one KRaft node, the same internal topics).
 *
 * <pre>java -cp littlehorse-node.jar:lib/* dev.sopline.benchmark.littlehorse.LittleHorseNode &lt;data dir&gt; &lt;kafka port&gt;
 *     &lt;controller port&gt; &lt;LittleHorse config file&gt;</pre>
 *
 * The server's classes need Java 25; the config file holds its {@code LHS_*} settings.
 */
public final class LittleHorseNode {

    private LittleHorseNode() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 4) {
            System.err.println("Expected: <data dir> <kafka port> <controller port> <LittleHorse config file>");
            System.exit(2);
        }
        startBroker(Path.of(args[0]).toAbsolutePath().resolve("kafka"), Integer.parseInt(args[1]), Integer.parseInt(args[2]));
        // LittleHorse's own entry point: it creates its topics, starts its server and waits for a shutdown signal.
        Class.forName("io.littlehorse.App").getMethod("main", String[].class).invoke(null, (Object) new String[] {args[3]});
    }

    /**
     * The settings of the platform's embedded broker ({@code EmbeddedBroker} in the standalone module), so that the two
     * engines run on the same kind of broker. Copied rather than shared: that class is built against the platform's
     * Kafka 4.2.1, and this JVM runs LittleHorse's 4.3.1.
     */
    private static void startBroker(Path logDir, int port, int controllerPort) throws Exception {
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
        props.put("offsets.topic.num.partitions", "4");
        props.put("transaction.state.log.num.partitions", "4");
        props.put("log.cleaner.dedupe.buffer.size", String.valueOf(16 * 1024 * 1024));
        // The platform's BrokerThreads: one request handler per core (2 to 8), one network thread per two cores (1 to 3).
        int cores = Runtime.getRuntime().availableProcessors();
        props.put("num.network.threads", String.valueOf(Math.max(1, Math.min(3, cores / 2))));
        props.put("num.io.threads", String.valueOf(Math.max(2, Math.min(8, cores))));
        // The platform's: a transaction's write that meets the markers of the commit before is checked again after 1 ms, not 20.
        props.put("add.partitions.to.txn.retry.backoff.ms", "1");
        props.put("auto.create.topics.enable", "false");
        props.put("num.partitions", "1");
        KafkaConfig config = KafkaConfig.fromProps(props, false);
        new Formatter()
                .setNodeId(config.nodeId())
                .setClusterId(Uuid.randomUuid().toString())
                .setDirectories(List.of(logDir.toString()))
                .setMetadataLogDirectory(logDir.toString())
                .setControllerListenerName("CONTROLLER")
                .setReleaseVersion(MetadataVersion.LATEST_PRODUCTION)
                .run();
        KafkaRaftServer server = new KafkaRaftServer(config, Time.SYSTEM);
        server.startup();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.shutdown();
            server.awaitShutdown();
        }, "broker-shutdown"));
    }
}
