package dev.sopline.gateway.store;

import dev.sopline.engine.topology.JsonSerde;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A single-partition compacted topic read whole into memory by every gateway replica: the shared, durable table
 * behind tokens and webhook subscriptions. A write returns once this replica has read it back; other replicas read
 * it within their poll interval (100 ms).
 *
 * @param <V> the value type, JSON on the topic
 */
public final class CompactedTopicView<V> {

    private static final Logger LOG = LoggerFactory.getLogger(CompactedTopicView.class);
    private static final Duration WRITE_VISIBLE_TIMEOUT = Duration.ofSeconds(10);

    private final String topic;
    private final JsonSerde<V> serde;
    private final BiConsumer<V, V> onChange;
    private final Map<String, V> values = new ConcurrentHashMap<>();
    private final AtomicLong readUpTo = new AtomicLong(-1);
    private final AtomicBoolean running = new AtomicBoolean();
    private KafkaProducer<String, byte[]> producer;
    private Thread reader;

    /**
     * @param onChange told of each change as (previous, current), either null, on the reading thread
     */
    public CompactedTopicView(String topic, Class<V> type, BiConsumer<V, V> onChange) {
        this.topic = topic;
        this.serde = new JsonSerde<>(type);
        this.onChange = onChange;
    }

    public Optional<V> get(String key) {
        return Optional.ofNullable(values.get(key));
    }

    public Collection<V> values() {
        return values.values();
    }

    /** Stores the value under the key, or deletes it when null, and returns once this replica serves the change. */
    public void put(String key, V value) {
        try {
            RecordMetadata written = producer.send(new ProducerRecord<>(topic, key, value == null ? null : serde.serializer().serialize(topic, value)))
                    .get(WRITE_VISIBLE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            long deadline = System.nanoTime() + WRITE_VISIBLE_TIMEOUT.toNanos();
            while (readUpTo.get() < written.offset()) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(topic + " was not read back in time");
                }
                Thread.sleep(5);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while writing to " + topic, e);
        } catch (Exception e) {
            throw new IllegalStateException("Expected to write to " + topic + ", but " + e.getMessage(), e);
        }
    }

    /** Reads the topic from its beginning and returns once caught up with its end. */
    public void start(String bootstrapServers) {
        producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
                ProducerConfig.ACKS_CONFIG, "all"), new StringSerializer(), new ByteArraySerializer());
        running.set(true);
        CompletableFuture<Void> caughtUp = new CompletableFuture<>();
        reader = new Thread(() -> read(bootstrapServers, caughtUp), "view-" + topic);
        reader.setDaemon(true);
        reader.start();
        caughtUp.join();
    }

    private void read(String bootstrapServers, CompletableFuture<Void> caughtUp) {
        Map<String, Object> config = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        TopicPartition partition = new TopicPartition(topic, 0);
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(config, new StringDeserializer(), new ByteArrayDeserializer())) {
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            long end = consumer.endOffsets(List.of(partition)).get(partition);
            while (running.get()) {
                for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(100))) {
                    V current = record.value() == null ? null : serde.deserializer().deserialize(topic, record.value());
                    V previous = current == null ? values.remove(record.key()) : values.put(record.key(), current);
                    onChange.accept(previous, current);
                }
                long position = consumer.position(partition);
                readUpTo.set(position - 1);
                if (!caughtUp.isDone() && position >= end) {
                    caughtUp.complete(null);
                }
            }
        } catch (RuntimeException e) {
            caughtUp.completeExceptionally(e);
            if (running.get()) {
                LOG.error("Reading {} failed", topic, e);
            }
        }
    }

    public void stop() {
        running.set(false);
        try {
            if (reader != null) {
                reader.join(5_000);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (producer != null) {
            producer.close(Duration.ofSeconds(5));
        }
    }
}
