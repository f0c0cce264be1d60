package dev.sopline.gateway.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.github.f4b6a3.ulid.UlidCreator;
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

/** A record its handler cannot take is skipped: the tail goes on with the next one and stays healthy. */
class TopicTailIT {

    @Test
    void shouldSkipARecordItsHandlerFailsOnAndHandleTheNext() throws Exception {
        String topic = "tail-failing-handler-" + UlidCreator.getMonotonicUlid();
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", SharedKafka.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();
        }
        List<String> handled = new CopyOnWriteArrayList<>();
        TopicTail tail = new TopicTail();
        tail.start(SharedKafka.bootstrapServers(), topic, TopicTail.Visibility.COMMITTED, record -> {
            if (record.key().equals("poison")) {
                throw new IllegalStateException("cannot handle " + record.key());
            }
            handled.add(record.key());
        });
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedKafka.bootstrapServers()), new StringSerializer(), new ByteArraySerializer())) {
            for (String key : List.of("first", "poison", "after")) {
                producer.send(new ProducerRecord<>(topic, key, new byte[] {1})).get();
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> handled.contains("after"));
            assertThat(handled).containsExactly("first", "after");
            assertThat(tail.isHealthy()).isTrue();
        } finally {
            tail.stop();
        }
        assertThat(tail.isHealthy()).isFalse();
    }
}
