package dev.sopline.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.github.f4b6a3.ulid.UlidCreator;
import dev.sopline.gateway.store.TopicTail;
import dev.sopline.testing.SharedKafka;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * What the gateway's tails see of a transaction the engine has not committed yet: the reply tail answers a request as
 * soon as the reply is written, the event tail only once it commits. The engine is played by a transactional producer.
 */
class TopicTailVisibilityIT {

    @Test
    void shouldSeeARecordAsWrittenBeforeItsTransactionCommitsAndACommittedOneOnlyAfter() throws Exception {
        String topic = "tail-visibility-" + UlidCreator.getMonotonicUlid();
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", SharedKafka.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(topic, 3, (short) 1))).all().get();
        }
        List<String> asWritten = new CopyOnWriteArrayList<>();
        List<String> committed = new CopyOnWriteArrayList<>();
        TopicTail early = new TopicTail();
        TopicTail late = new TopicTail();
        early.start(SharedKafka.bootstrapServers(), topic, TopicTail.Visibility.AS_WRITTEN, record -> asWritten.add(record.key()));
        late.start(SharedKafka.bootstrapServers(), topic, TopicTail.Visibility.COMMITTED, record -> committed.add(record.key()));
        try (KafkaProducer<String, byte[]> engine = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedKafka.bootstrapServers(),
                ProducerConfig.TRANSACTIONAL_ID_CONFIG, topic), new StringSerializer(), new ByteArraySerializer())) {
            engine.initTransactions();
            engine.beginTransaction();
            engine.send(new ProducerRecord<>(topic, 0, "reply-1", new byte[] {1})).get();
            await().atMost(Duration.ofSeconds(30)).until(() -> asWritten.contains("reply-1"));

            // A record outside any transaction, written after it on another partition: once the committed tail has
            // read this far, it has passed over the uncommitted one.
            try (KafkaProducer<String, byte[]> other = new KafkaProducer<>(Map.of(
                    ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedKafka.bootstrapServers()), new StringSerializer(), new ByteArraySerializer())) {
                other.send(new ProducerRecord<>(topic, 1, "marker", new byte[] {2})).get();
            }
            await().atMost(Duration.ofSeconds(30)).until(() -> committed.contains("marker"));
            assertThat(committed).as("the uncommitted record is not seen").doesNotContain("reply-1");

            engine.commitTransaction();
            await().atMost(Duration.ofSeconds(30)).until(() -> committed.contains("reply-1"));
        } finally {
            early.stop();
            late.stop();
        }
    }
}
