package dev.sopline.gateway.store;

import dev.sopline.engine.api.serde.JsonSerde;
import dev.sopline.schemas.kafka.KafkaClientSecurity;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
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
 * <p>A record that cannot be read (not JSON, not the value type, no key) or that {@code onChange} refuses is logged
 * with its offset and skipped: the table keeps what it had for that key. When reading itself fails, a new consumer
 * resumes after the last record read, so the table is kept, not read again from the start.
 *
 * @param <V> the value type, JSON on the topic
 */
public final class CompactedTopicView<V> {

    private static final Logger LOG = LoggerFactory.getLogger(CompactedTopicView.class);
    private static final Duration WRITE_VISIBLE_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration POLL = Duration.ofMillis(100);
    private static final Duration RECONNECT_PAUSE = Duration.ofSeconds(1);
    /** Far longer than one poll; shorter than an operator would wait before calling the replica broken. */
    private static final Duration HEALTHY_POLL_AGE = Duration.ofSeconds(15);

    private final String topic;
    private final JsonSerde<V> serde;
    private final BiConsumer<V, V> onChange;
    private final Map<String, V> values = new ConcurrentHashMap<>();
    private final AtomicLong readUpTo = new AtomicLong(-1);
    private final AtomicBoolean running = new AtomicBoolean();
    private volatile long lastPollNanos;
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
        write(List.of(new ProducerRecord<>(topic, key, value == null ? null : serde.serializer().serialize(topic, value))));
    }

    /** Deletes the keys, sent together, and returns once this replica serves every deletion. */
    public void deleteAll(Collection<String> keys) {
        if (!keys.isEmpty()) {
            write(keys.stream().map(key -> new ProducerRecord<String, byte[]>(topic, key, null)).toList());
        }
    }

    private void write(List<ProducerRecord<String, byte[]>> records) {
        try {
            List<Future<RecordMetadata>> sent = records.stream().map(producer::send).toList();
            long lastOffset = -1;
            for (Future<RecordMetadata> each : sent) {
                lastOffset = Math.max(lastOffset, each.get(WRITE_VISIBLE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).offset());
            }
            long deadline = System.nanoTime() + WRITE_VISIBLE_TIMEOUT.toNanos();
            while (readUpTo.get() < lastOffset) {
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
        producer = new KafkaProducer<>(KafkaClientSecurity.secured(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
                ProducerConfig.ACKS_CONFIG, "all")), new StringSerializer(), new ByteArraySerializer());
        running.set(true);
        CompletableFuture<Void> caughtUp = new CompletableFuture<>();
        reader = new Thread(() -> read(bootstrapServers, caughtUp), "view-" + topic);
        reader.setDaemon(true);
        reader.start();
        caughtUp.join();
    }

    private void read(String bootstrapServers, CompletableFuture<Void> caughtUp) {
        Map<String, Object> config = KafkaClientSecurity.secured(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                // Should the next offset be gone, reading the table again from its start is harmless; from its end is not.
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"));
        TopicPartition partition = new TopicPartition(topic, 0);
        while (running.get()) {
            try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(config, new StringDeserializer(), new ByteArrayDeserializer())) {
                consumer.assign(List.of(partition));
                if (readUpTo.get() < 0) {
                    consumer.seekToBeginning(List.of(partition));
                } else {
                    // A new consumer after a failure goes on from the first record the table lacks: it keeps its table.
                    consumer.seek(partition, readUpTo.get() + 1);
                }
                long end = consumer.endOffsets(List.of(partition)).get(partition);
                lastPollNanos = System.nanoTime();
                while (running.get()) {
                    for (ConsumerRecord<String, byte[]> record : consumer.poll(POLL)) {
                        apply(record);
                    }
                    lastPollNanos = System.nanoTime();
                    long position = consumer.position(partition);
                    readUpTo.set(position - 1);
                    if (!caughtUp.isDone() && position >= end) {
                        caughtUp.complete(null);
                    }
                }
            } catch (RuntimeException e) {
                if (!caughtUp.isDone()) {
                    // Never read whole: the gateway must not serve without its table, so start() fails instead.
                    caughtUp.completeExceptionally(e);
                    return;
                }
                if (running.get()) {
                    LOG.error("Reading {} failed; resuming at offset {} in {}", topic, readUpTo.get() + 1, RECONNECT_PAUSE, e);
                    pauseOrStop();
                }
            }
        }
    }

    /** Takes one record into the table; one that cannot be read or applied is skipped, never the end of the reader. */
    private void apply(ConsumerRecord<String, byte[]> record) {
        try {
            V current = record.value() == null ? null : serde.deserializer().deserialize(topic, record.value());
            V previous = current == null ? values.remove(record.key()) : values.put(record.key(), current);
            try {
                onChange.accept(previous, current);
            } catch (RuntimeException e) {
                // A value its registry cannot index (a field missing) is left out of the table as well.
                restore(record.key(), previous);
                throw e;
            }
        } catch (RuntimeException e) {
            // The type only: a parser's message quotes the record, and these tables hold webhook secrets.
            LOG.warn("Skipping a record of {} at partition {} offset {} that could not be read ({})", record.topic(), record.partition(),
                    record.offset(), e.getClass().getName());
        }
    }

    private void restore(String key, V previous) {
        if (previous == null) {
            values.remove(key);
        } else {
            values.put(key, previous);
        }
    }

    private void pauseOrStop() {
        try {
            Thread.sleep(RECONNECT_PAUSE.toMillis());
        } catch (InterruptedException e) {
            running.set(false);
            Thread.currentThread().interrupt();
        }
    }

    /** Running, and its loop polled the broker recently: what a health indicator reports. */
    public boolean isHealthy() {
        return running.get() && reader != null && reader.isAlive()
                && System.nanoTime() - lastPollNanos < HEALTHY_POLL_AGE.toNanos();
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
