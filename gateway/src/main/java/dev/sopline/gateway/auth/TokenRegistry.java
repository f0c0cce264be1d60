package dev.sopline.gateway.auth;

import dev.sopline.engine.topology.EngineTopics;
import dev.sopline.engine.topology.JsonSerde;
import dev.sopline.gateway.config.SopProperties;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
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
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Every token of every workspace, read from the compacted {@code sop.tokens} topic into memory by each gateway
 * replica. A write is acknowledged only once this replica has read it back, and other replicas read it within
 * their poll interval (100 ms), so a revocation takes effect everywhere well within a second.
 */
@Component
public class TokenRegistry implements SmartLifecycle {

    private static final Logger LOG = LoggerFactory.getLogger(TokenRegistry.class);
    private static final Duration WRITE_VISIBLE_TIMEOUT = Duration.ofSeconds(10);

    private final SopProperties properties;
    private final JsonSerde<TokenRecord> serde = new JsonSerde<>(TokenRecord.class);
    private final Map<String, TokenRecord> byId = new ConcurrentHashMap<>();
    private final Map<String, String> idByHash = new ConcurrentHashMap<>();
    private final Map<String, Instant> lastUsed = new ConcurrentHashMap<>();
    private final AtomicLong readUpTo = new AtomicLong(-1);
    private final AtomicBoolean running = new AtomicBoolean();
    private KafkaProducer<String, byte[]> producer;
    private Thread reader;

    public TokenRegistry(SopProperties properties) {
        this.properties = properties;
    }

    /** The usable token with this secret, compared in constant time against its stored hash. */
    public Optional<TokenRecord> authenticate(String presented, Instant now) {
        String id = idByHash.get(TokenHashing.hashHex(presented));
        TokenRecord record = id == null ? null : byId.get(id);
        if (record == null || !TokenHashing.matches(presented, record.hash()) || !record.isUsableAt(now)) {
            return Optional.empty();
        }
        lastUsed.put(record.id(), now);
        return Optional.of(record);
    }

    public List<TokenRecord> active(String workspace, Instant now) {
        return byId.values().stream()
                .filter(record -> record.workspace().equals(workspace) && record.isUsableAt(now))
                .sorted(Comparator.comparing(TokenRecord::id))
                .toList();
    }

    public Optional<TokenRecord> find(String workspace, String id) {
        return Optional.ofNullable(byId.get(id)).filter(record -> record.workspace().equals(workspace));
    }

    public boolean anyUsable(Instant now) {
        return byId.values().stream().anyMatch(record -> record.isUsableAt(now));
    }

    /** When this replica last saw the token used; each replica knows its own requests only. */
    public Optional<Instant> lastUsedAt(String id) {
        return Optional.ofNullable(lastUsed.get(id));
    }

    /** Stores the record and returns once this replica serves it. */
    public void save(TokenRecord record) {
        try {
            RecordMetadata written = producer.send(new ProducerRecord<>(EngineTopics.TOKENS, record.id(),
                    serde.serializer().serialize(EngineTopics.TOKENS, record))).get(WRITE_VISIBLE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            awaitRead(written.offset());
        } catch (Exception e) {
            throw new IllegalStateException("Expected to store token " + record.id() + ", but " + e.getMessage(), e);
        }
    }

    private void awaitRead(long offset) throws InterruptedException {
        long deadline = System.nanoTime() + WRITE_VISIBLE_TIMEOUT.toNanos();
        while (readUpTo.get() < offset) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the token topic was not read back in time");
            }
            Thread.sleep(5);
        }
    }

    @Override
    public void start() {
        producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, properties.kafka().bootstrapServers(),
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
                ProducerConfig.ACKS_CONFIG, "all"), new StringSerializer(), new ByteArraySerializer());
        running.set(true);
        java.util.concurrent.CompletableFuture<Void> caughtUp = new java.util.concurrent.CompletableFuture<>();
        reader = new Thread(() -> read(caughtUp), "token-registry");
        reader.setDaemon(true);
        reader.start();
        caughtUp.join();
    }

    private void read(java.util.concurrent.CompletableFuture<Void> caughtUp) {
        Map<String, Object> config = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, properties.kafka().bootstrapServers(),
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 50);
        TopicPartition partition = new TopicPartition(EngineTopics.TOKENS, 0);
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(config, new StringDeserializer(), new ByteArrayDeserializer())) {
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            long end = consumer.endOffsets(List.of(partition)).get(partition);
            while (running.get()) {
                for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(100))) {
                    apply(record.key(), record.value() == null ? null : serde.deserializer().deserialize(record.topic(), record.value()));
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
                LOG.error("Reading tokens failed", e);
            }
        }
    }

    private void apply(String id, TokenRecord record) {
        TokenRecord previous = record == null ? byId.remove(id) : byId.put(id, record);
        if (previous != null) {
            idByHash.remove(previous.hash());
        }
        if (record != null) {
            idByHash.put(record.hash(), id);
        }
    }

    @Override
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

    @Override
    public boolean isRunning() {
        return running.get();
    }

    @Override
    public int getPhase() {
        return Integer.MIN_VALUE + 2000;
    }
}
