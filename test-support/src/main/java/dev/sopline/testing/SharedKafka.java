package dev.sopline.testing;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.common.utils.Exit;
import org.springframework.boot.SpringApplication;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;
import org.springframework.util.ClassUtils;

/**
 * One real single-node KRaft broker per test JVM, started on first use and ended with the JVM, so every
 * integration test of a module shares it. Tests keep apart by using their own application ids and consumer groups.
 * <p>
 * The broker ends after the applications that use it: Kafka's test kit deletes the broker's directories in JVM
 * shutdown hooks of its own, which the JVM runs beside every other hook, among them Spring Boot's, which closes the
 * test's engines and gateways. A log directory deleted under a running broker takes its partitions offline, an engine
 * committing its last transaction then waits for them until the test JVM is killed, and that engine's data directory
 * is never deleted. So the kit's hooks are held back, and run by a Spring Boot shutdown handler (which runs once every
 * application context has closed) after the broker has stopped.
 */
public final class SharedKafka {

    /** Without Spring Boot in the test JVM (the engine's own tests, which close their engines themselves), the kit's hooks stay as they are. */
    private static final boolean SPRING_BOOT =
            ClassUtils.isPresent("org.springframework.boot.SpringApplication", SharedKafka.class.getClassLoader());
    private static volatile EmbeddedKafkaKraftBroker broker;

    private SharedKafka() {}

    /** Bootstrap servers of the shared broker, starting it if this is the first call. */
    public static String bootstrapServers() {
        return broker().getBrokersAsString();
    }

    public static synchronized EmbeddedKafkaKraftBroker broker() {
        if (broker == null) {
            EmbeddedKafkaKraftBroker started = new EmbeddedKafkaKraftBroker(1, 1);
            started.brokerProperties(Map.of(
                    "transaction.state.log.replication.factor", "1",
                    "transaction.state.log.min.isr", "1",
                    "offsets.topic.replication.factor", "1",
                    "group.initial.rebalance.delay.ms", "0",
                    // As in docker-compose: a killed engine's open transaction is aborted within a second of timing out.
                    "transaction.abort.timed.out.transaction.cleanup.interval.ms", "1000",
                    // As the platform's brokers: a write that meets the last commit's markers is checked again after 1 ms.
                    "add.partitions.to.txn.retry.backoff.ms", "1",
                    "auto.create.topics.enable", "false"));
            if (SPRING_BOOT) {
                startAfterSpringApplications(started);
            } else {
                started.afterPropertiesSet();
            }
            broker = started;
        }
        return broker;
    }

    private static void startAfterSpringApplications(EmbeddedKafkaKraftBroker started) {
        List<Runnable> heldHooks = new CopyOnWriteArrayList<>();
        Exit.setShutdownHookAdder((name, hook) -> heldHooks.add(hook));
        try {
            started.afterPropertiesSet();
        } finally {
            Exit.resetShutdownHookAdder();
        }
        SpringApplication.getShutdownHandlers().add(() -> {
            try {
                started.destroy();
            } finally {
                // A broker that fails to stop still has its directories deleted.
                heldHooks.forEach(Runnable::run);
            }
        });
    }
}
