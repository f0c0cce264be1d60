package dev.sopline.standalone;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EmbeddedBrokerIT {

    @TempDir
    Path dataDir;

    @Test
    void theGroupAndTransactionTopicsGetTheFewPartitionsOfOneNode() throws Exception {
        try (EmbeddedBroker broker = EmbeddedBroker.start(dataDir, StandaloneProcess.freePort(), StandaloneProcess.freePort());
                Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
            // Each topic is made on first use: a group's offsets asked for, a transactional producer started.
            admin.listConsumerGroupOffsets("any-group").all().get();
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                    ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                    ProducerConfig.TRANSACTIONAL_ID_CONFIG, "tx-" + UUID.randomUUID()),
                    new StringSerializer(), new StringSerializer())) {
                producer.initTransactions();
            }

            var topics = admin.describeTopics(List.of("__consumer_offsets", "__transaction_state")).allTopicNames().get();

            assertThat(topics.get("__consumer_offsets").partitions()).hasSize(EmbeddedBroker.INTERNAL_TOPIC_PARTITIONS);
            assertThat(topics.get("__transaction_state").partitions()).hasSize(EmbeddedBroker.INTERNAL_TOPIC_PARTITIONS);
            assertThat(EmbeddedBroker.INTERNAL_TOPIC_PARTITIONS).isLessThan(50);
        }
    }

    @Test
    void theLogCleanersMapOfKeysTakesAnEighthOfKafkasDefaultHeap() throws Exception {
        Config config = runningBrokersConfig();

        assertThat(config.get("log.cleaner.dedupe.buffer.size").value()).isEqualTo(String.valueOf(16 * 1024 * 1024));
        assertThat(config.get("log.cleaner.enable").value()).as("compacted topics are still cleaned").isEqualTo("true");
    }

    @Test
    void theBrokersThreadsAreSizedToTheCoresItShares() throws Exception {
        Config config = runningBrokersConfig();
        BrokerThreads expected = BrokerThreads.forCores(Runtime.getRuntime().availableProcessors());

        assertThat(config.get("num.network.threads").value()).isEqualTo(String.valueOf(expected.network()));
        assertThat(config.get("num.io.threads").value()).isEqualTo(String.valueOf(expected.requestHandlers()));
    }

    @Test
    void aTransactionsWriteThatMeetsTheLastCommitsMarkersIsCheckedAgainAfterAMillisecond() throws Exception {
        Config config = runningBrokersConfig();

        assertThat(config.get("add.partitions.to.txn.retry.backoff.ms").value()).as("Kafka's default is 20 ms").isEqualTo("1");
    }

    /** The settings the started broker reports for itself, as an operator would read them. */
    private Config runningBrokersConfig() throws Exception {
        try (EmbeddedBroker broker = EmbeddedBroker.start(dataDir, StandaloneProcess.freePort(), StandaloneProcess.freePort());
                Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
            ConfigResource node = new ConfigResource(ConfigResource.Type.BROKER, "1");
            return admin.describeConfigs(List.of(node)).all().get().get(node);
        }
    }
}
