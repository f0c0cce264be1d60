package dev.sopline.gateway.store;

import dev.sopline.schemas.kafka.KafkaClientSecurity;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
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
 *
 * <p>A tail may {@link #idleWhile idle}: while everything it would hand on is told in this JVM anyway, it fetches
 * nothing, and when that stops it goes back a look-back's time, so that records written by others meanwhile are
 * still handed on. A loop that fails while idle resumes the same way, from the look-back, not from the record it
 * handled last: records older than the look-back were of no use to anyone waiting.
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
    private BooleanSupplier toldInThisJvm = () -> false;
    private Duration lookBack = Duration.ZERO;
    /** Written by the following thread only; read by others through {@link #isFetching}. */
    private volatile boolean idle;
    /** The ends to reach before idling, taken when idling became possible, else null; the following thread's own. */
    private Map<TopicPartition, Long> idleOnceAt;

    /**
     * Fetches nothing while {@code toldInThisJvm} holds (checked on every pass of the loop, at least every
     * {@link #POLL}): first it reads up to the ends the partitions had when it began to hold, then pauses them. When
     * it stops holding, the tail goes on from the first record written in the last {@code lookBack} (by its
     * timestamp), or from where it paused if that is later, so a record written elsewhere while it idled is still
     * handed on if it is younger than the look-back. Set before {@link #start}.
     */
    public TopicTail idleWhile(BooleanSupplier toldInThisJvm, Duration lookBack) {
        this.toldInThisJvm = toldInThisJvm;
        this.lookBack = lookBack;
        return this;
    }

    /** False while the tail idles ({@link #idleWhile}). */
    public boolean isFetching() {
        return !idle;
    }

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
                if (idle) {
                    // Failed while idle: what it handled last may be long ago; the look-back is what matters.
                    goBack(consumer, partitions);
                } else {
                    for (TopicPartition partition : partitions) {
                        Long resumeAt = next.get(partition);
                        if (resumeAt == null) {
                            consumer.seekToEnd(List.of(partition));
                            next.put(partition, consumer.position(partition));
                        } else {
                            consumer.seek(partition, resumeAt);
                        }
                    }
                }
                idle = false;
                idleOnceAt = null;
                lastPollNanos = System.nanoTime();
                assigned.complete(null);
                while (running.get()) {
                    idleOrFollow(consumer, partitions);
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

    private void idleOrFollow(KafkaConsumer<String, byte[]> consumer, List<TopicPartition> partitions) {
        if (toldInThisJvm.getAsBoolean()) {
            if (idle) {
                return;
            }
            if (idleOnceAt == null) {
                idleOnceAt = consumer.endOffsets(partitions);
            }
            if (partitions.stream().allMatch(partition -> consumer.position(partition) >= idleOnceAt.getOrDefault(partition, 0L))) {
                consumer.pause(partitions);
                idle = true;
                idleOnceAt = null;
            }
        } else {
            idleOnceAt = null;
            if (idle) {
                goBack(consumer, partitions);
                consumer.resume(partitions);
                idle = false;
            }
        }
    }

    /**
     * Positions each partition at its first record of the look-back (its end if it has none), or where this tail
     * stopped handling if that is later. The ends are taken first: a record written while the times are looked up is
     * at or after them.
     */
    private void goBack(KafkaConsumer<String, byte[]> consumer, List<TopicPartition> partitions) {
        Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
        long since = System.currentTimeMillis() - lookBack.toMillis();
        Map<TopicPartition, OffsetAndTimestamp> firstSince = consumer.offsetsForTimes(
                partitions.stream().collect(Collectors.toMap(partition -> partition, partition -> since)));
        for (TopicPartition partition : partitions) {
            OffsetAndTimestamp first = firstSince.get(partition);
            long from = first == null ? ends.get(partition) : first.offset();
            Long handled = next.get(partition);
            long at = handled == null ? from : Math.max(from, handled);
            consumer.seek(partition, at);
            next.put(partition, at);
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
