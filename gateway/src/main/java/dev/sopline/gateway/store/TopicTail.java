package dev.sopline.gateway.store;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows every partition of a topic from its end, outside any consumer group: how each gateway replica sees every
 * reply and every state change, whichever partition it lands on.
 *
 * <p>Fetches long-poll with the broker's default wait: the broker answers as soon as a record arrives, so a short
 * wait would only add idle requests, not speed.
 */
public final class TopicTail {

    private static final Logger LOG = LoggerFactory.getLogger(TopicTail.class);

    private final AtomicBoolean running = new AtomicBoolean();
    private Thread thread;

    /** Starts following and returns once the end of every partition is the starting point. */
    public void start(String bootstrapServers, String topic, Visibility visibility, Consumer<ConsumerRecord<String, byte[]>> handler) {
        running.set(true);
        CompletableFuture<Void> assigned = new CompletableFuture<>();
        thread = new Thread(() -> follow(bootstrapServers, topic, visibility, handler, assigned), "tail-" + topic);
        thread.setDaemon(true);
        thread.start();
        assigned.join();
    }

    private void follow(String bootstrapServers, String topic, Visibility visibility, Consumer<ConsumerRecord<String, byte[]>> handler,
                        CompletableFuture<Void> assigned) {
        Map<String, Object> config = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, visibility.isolationLevel);
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(config, new StringDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                    .map(info -> new TopicPartition(topic, info.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToEnd(partitions);
            partitions.forEach(consumer::position);
            assigned.complete(null);
            while (running.get()) {
                consumer.poll(Duration.ofMillis(100)).forEach(handler);
            }
        } catch (RuntimeException e) {
            assigned.completeExceptionally(e);
            if (running.get()) {
                LOG.error("Following {} failed", topic, e);
            }
        }
    }

    public void stop() {
        running.set(false);
        try {
            if (thread != null) {
                thread.join(5_000);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    public boolean isRunning() {
        return running.get();
    }

    /** Which records a tail sees. */
    public enum Visibility {
        /** Only records of committed engine transactions: what a subscriber to the engine's history must see. */
        COMMITTED("read_committed"),
        /**
         * Records as soon as the engine writes them, before its transaction commits. Only for outputs that the engine
         * writes again, the same, if its transaction aborts and it processes the same commands once more.
         */
        AS_WRITTEN("read_uncommitted");

        private final String isolationLevel;

        Visibility(String isolationLevel) {
            this.isolationLevel = isolationLevel;
        }
    }
}
