package dev.sopline.testing;

import java.util.Map;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * One real single-node KRaft broker per test JVM, started on first use and ended with the JVM, so every
 * integration test of a module shares it. Tests keep apart by using their own application ids and consumer groups.
 */
public final class SharedKafka {

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
            started.afterPropertiesSet();
            // No shutdown hook: the broker must outlive the clients that close in their own hooks, and ends with the JVM.
            broker = started;
        }
        return broker;
    }
}
