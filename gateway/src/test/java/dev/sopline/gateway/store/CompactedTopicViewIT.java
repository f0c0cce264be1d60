package dev.sopline.gateway.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.github.f4b6a3.ulid.UlidCreator;
import dev.sopline.testing.SharedKafka;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/** A table read from a compacted topic skips the records it cannot read, whether there at start or written later. */
class CompactedTopicViewIT {

    public record Entry(String name) {}

    @Test
    void shouldSkipUnreadableRecordsAndReadTheValidOnesAfterThem() throws Exception {
        String topic = "view-garbage-" + UlidCreator.getMonotonicUlid();
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", SharedKafka.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1).configs(Map.of("cleanup.policy", "compact")))).all().get();
        }
        CompactedTopicView<Entry> view = new CompactedTopicView<>(topic, Entry.class, (previous, current) -> {
            if (current != null && current.name() == null) {
                throw new IllegalArgumentException("an entry needs a name");
            }
        });
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedKafka.bootstrapServers()), new StringSerializer(), new ByteArraySerializer())) {
            write(producer, topic, "early-garbage", "not json");
            write(producer, topic, "early", "{\"name\":\"before start\"}");
            view.start(SharedKafka.bootstrapServers());
            try {
                assertThat(view.get("early")).contains(new Entry("before start"));

                write(producer, topic, "late-garbage", "{\"name\":");
                write(producer, topic, "nameless", "{}");
                view.put("late", new Entry("after start"));

                assertThat(view.get("late")).contains(new Entry("after start"));
                await().atMost(Duration.ofSeconds(5)).until(view::isHealthy);
                assertThat(view.get("early-garbage")).isEmpty();
                assertThat(view.get("late-garbage")).isEmpty();
                assertThat(view.get("nameless")).as("a value its registry refused is not in the table").isEmpty();
            } finally {
                view.stop();
            }
        }
        assertThat(view.isHealthy()).isFalse();
    }

    private static void write(KafkaProducer<String, byte[]> producer, String topic, String key, String value) throws Exception {
        producer.send(new ProducerRecord<>(topic, key, value.getBytes(StandardCharsets.UTF_8))).get();
    }
}
