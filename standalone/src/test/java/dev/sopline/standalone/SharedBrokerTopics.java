package dev.sopline.standalone;

import dev.sopline.engine.api.topic.EngineTopics;
import dev.sopline.testing.SharedKafka;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;

/**
 * The platform's topics on this test JVM's shared broker, made with a replica's six partitions before any engine
 * starts on it. The engine that runs in a gateway's JVM alone (as in {@code TaskInboxBrowserIT}) would make its own
 * topics with one partition, and the topics keep the count of whichever engine made them first: the two replicas of
 * {@code DistributedFailoverIT} would then share one partition, one of them owning nothing.
 */
final class SharedBrokerTopics {

    static final int PARTITIONS = 6;

    private SharedBrokerTopics() {}

    static void ensure() {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", SharedKafka.bootstrapServers()))) {
            EngineTopics.ensure(admin, PARTITIONS, PARTITIONS, (short) 1);
        }
    }
}
