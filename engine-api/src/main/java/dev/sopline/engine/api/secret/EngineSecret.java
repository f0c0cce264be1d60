package dev.sopline.engine.api.secret;

import dev.sopline.engine.api.topic.EngineTopics;
import dev.sopline.schemas.kafka.KafkaClientSecurity;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The key the engine derives webhook callback ids under. It must be the same on every replica and across restarts,
 * or a replay after a crash (or on another replica) would mint other ids than the ones already handed out. It is
 * {@code SOP_ENGINE_SECRET} when set; otherwise it is generated once and kept in {@link EngineTopics#ENGINE_SECRET},
 * where the first record wins, so replicas that start together agree. It is never logged. Gateways that run no
 * engine read it too, for the key of the engines' query endpoints ({@code EngineQueryKey}).
 */
public final class EngineSecret {

    private static final int SECRET_BYTES = 32;
    private static final int MIN_CONFIGURED_LENGTH = 16;
    private static final Duration READ_LIMIT = Duration.ofSeconds(30);
    private static final TopicPartition PARTITION = new TopicPartition(EngineTopics.ENGINE_SECRET, 0);

    private EngineSecret() {}

    /**
     * @param configured {@code SOP_ENGINE_SECRET}, or null or blank for the one kept in the topic
     * @param bootstrapServers the cluster whose topic keeps it
     */
    public static byte[] resolve(String configured, String bootstrapServers) {
        if (configured != null && !configured.isBlank()) {
            return fromSetting(configured);
        }
        return fromTopic(bootstrapServers);
    }

    /** Hashed to a 32-byte key, so any sufficiently long setting makes a full-size HMAC key. */
    static byte[] fromSetting(String configured) {
        if (configured.length() < MIN_CONFIGURED_LENGTH) {
            throw new IllegalStateException("Expected SOP_ENGINE_SECRET to be at least " + MIN_CONFIGURED_LENGTH + " characters");
        }
        try {
            return MessageDigest.getInstance("SHA-256").digest(configured.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("Expected the JVM to provide SHA-256", e);
        }
    }

    /** Reads the first record; when there is none, writes one and reads the first record back (another replica's may win). */
    static byte[] fromTopic(String bootstrapServers) {
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerConfig(bootstrapServers))) {
            consumer.assign(List.of(PARTITION));
            Optional<byte[]> first = readFirst(consumer);
            if (first.isPresent()) {
                return first.get();
            }
            write(bootstrapServers);
            return readFirst(consumer).orElseThrow(() ->
                    new IllegalStateException("Expected to read back the engine secret from " + EngineTopics.ENGINE_SECRET));
        }
    }

    private static Optional<byte[]> readFirst(KafkaConsumer<byte[], byte[]> consumer) {
        consumer.seekToBeginning(List.of(PARTITION));
        long end = consumer.endOffsets(List.of(PARTITION), READ_LIMIT).get(PARTITION);
        if (consumer.position(PARTITION, READ_LIMIT) >= end) {
            return Optional.empty();
        }
        Instant deadline = Instant.now().plus(READ_LIMIT);
        while (Instant.now().isBefore(deadline)) {
            ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(200));
            if (!records.isEmpty()) {
                return Optional.of(records.iterator().next().value());
            }
        }
        throw new IllegalStateException("Expected to read the engine secret from " + EngineTopics.ENGINE_SECRET + " within " + READ_LIMIT);
    }

    private static void write(String bootstrapServers) {
        SecureRandom random = new SecureRandom();
        byte[] secret = new byte[SECRET_BYTES];
        random.nextBytes(secret);
        // Each writer its own key: compaction keeps the latest record per key, and must never drop the first one.
        byte[] writer = new byte[16];
        random.nextBytes(writer);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(KafkaClientSecurity.secured(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class)))) {
            producer.send(new ProducerRecord<>(EngineTopics.ENGINE_SECRET, 0, writer, secret)).get(READ_LIMIT.toSeconds(), TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while writing the engine secret", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("Expected to write the engine secret to " + EngineTopics.ENGINE_SECRET, e);
        }
    }

    private static Map<String, Object> consumerConfig(String bootstrapServers) {
        return KafkaClientSecurity.secured(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class));
    }
}
