package dev.sopline.gateway.store;

import dev.sopline.schemas.kafka.KafkaClientSecurity;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RecordDeserializationException;
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
 *
 * <p>One bad record never stops the tail: a record its handler cannot take is logged with its topic, partition and
 * offset and skipped. When the poll loop itself fails, the consumer is closed and a new one resumes, after a short
 * pause, from the next record this tail had not yet handled (nothing is skipped or handled twice); a partition added
 * since is followed from its end.
 */
public final class TopicTail {

    private static final Logger LOG = LoggerFactory.getLogger(TopicTail.class);
    private static final Duration POLL = Duration.ofMillis(100);
    private static final Duration RECONNECT_PAUSE = Duration.ofSeconds(1);
    /** Far longer than one poll; shorter than an operator would wait before calling the replica broken. */
    private static final Duration HEALTHY_POLL_AGE = Duration.ofSeconds(15);

    private final AtomicBoolean running = new AtomicBoolean();
    /** The next offset to handle per partition: where a new consumer resumes. Only the following thread uses it. */
    private final Map<TopicPartition, Long> next = new HashMap<>();
    private volatile long lastPollNanos;
    private Thread thread;

    /** Starts following and returns once the end of every partition is the starting point. */
    public void start(String bootstrapServers, String topic, Visibility visibility, Consumer<ConsumerRecord<String, byte[]>> handler) {
        running.set(true);
        CompletableFuture<Void> assigned = new CompletableFuture<>();
        // Two tails may follow one topic (sop.events: committed for streams, as written for waiting reads): the name tells them apart.
        String name = "tail-" + topic + (visibility == Visibility.AS_WRITTEN ? "-as-written" : "");
        thread = new Thread(() -> follow(bootstrapServers, topic, visibility, handler, assigned), name);
        thread.setDaemon(true);
        thread.start();
        assigned.join();
    }

    private void follow(String bootstrapServers, String topic, Visibility visibility, Consumer<ConsumerRecord<String, byte[]>> handler,
                        CompletableFuture<Void> assigned) {
        Map<String, Object> config = KafkaClientSecurity.secured(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, visibility.isolationLevel));
        while (running.get()) {
            try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(config, new StringDeserializer(), new ByteArrayDeserializer())) {
                List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                        .map(info -> new TopicPartition(topic, info.partition())).toList();
                consumer.assign(partitions);
                for (TopicPartition partition : partitions) {
                    Long resumeAt = next.get(partition);
                    if (resumeAt == null) {
                        consumer.seekToEnd(List.of(partition));
                        next.put(partition, consumer.position(partition));
                    } else {
                        consumer.seek(partition, resumeAt);
                    }
                }
                lastPollNanos = System.nanoTime();
                assigned.complete(null);
                while (running.get()) {
                    handleEach(consumer, handler);
                }
            } catch (RuntimeException e) {
                if (!assigned.isDone()) {
                    // Never started: the gateway must not come up without it, so start() fails instead.
                    assigned.completeExceptionally(e);
                    return;
                }
                if (running.get()) {
                    LOG.error("Following {} failed; resuming in {}", topic, RECONNECT_PAUSE, e);
                    pauseOrStop();
                }
            }
        }
    }

    private void handleEach(KafkaConsumer<String, byte[]> consumer, Consumer<ConsumerRecord<String, byte[]>> handler) {
        ConsumerRecords<String, byte[]> records;
        try {
            records = consumer.poll(POLL);
        } catch (RecordDeserializationException e) {
            LOG.warn("Skipping a record of {} at partition {} offset {} that cannot be read", e.topicPartition().topic(),
                    e.topicPartition().partition(), e.offset(), e);
            consumer.seek(e.topicPartition(), e.offset() + 1);
            next.put(e.topicPartition(), e.offset() + 1);
            return;
        }
        lastPollNanos = System.nanoTime();
        for (ConsumerRecord<String, byte[]> record : records) {
            try {
                handler.accept(record);
            } catch (RuntimeException e) {
                LOG.warn("Skipping a record of {} at partition {} offset {} that could not be handled", record.topic(),
                        record.partition(), record.offset(), e);
            }
            next.put(new TopicPartition(record.topic(), record.partition()), record.offset() + 1);
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

    /** Running, and its loop polled the broker recently: what a health indicator reports. */
    public boolean isHealthy() {
        return running.get() && thread != null && thread.isAlive()
                && System.nanoTime() - lastPollNanos < HEALTHY_POLL_AGE.toNanos();
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
