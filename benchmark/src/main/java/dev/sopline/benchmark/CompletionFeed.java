package dev.sopline.benchmark;

import dev.sopline.schemas.event.InstanceStateChanged;
import dev.sopline.schemas.event.StateChangeEvents;
import dev.sopline.schemas.instance.InstanceState;
import dev.sopline.schemas.topic.Topics;
import io.cloudevents.CloudEvent;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * When each instance of interest completed, as a reader of {@code sop.events} at one isolation level sees it, from the
 * moment it is made on. Waiters are woken through {@link #completedAt()}'s monitor.
 */
final class CompletionFeed implements AutoCloseable {

    private static final byte[] INSTANCE_EVENT = ('"' + StateChangeEvents.INSTANCE_STATE_CHANGED + '"').getBytes(StandardCharsets.UTF_8);
    private static final byte[] COMPLETED = "\"to\":\"completed\"".getBytes(StandardCharsets.UTF_8);

    private final Map<String, Long> completedAt = new ConcurrentHashMap<>();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Thread reader;

    /**
     * @param isolation {@code read_committed} for what subscribers see, {@code read_uncommitted} for when the engine decided
     * @param ofInterest the instance ids to record; the others' events are skipped unparsed
     */
    CompletionFeed(String bootstrap, String isolation, Predicate<String> ofInterest, String threadName) throws InterruptedException {
        CountDownLatch following = new CountDownLatch(1);
        reader = new Thread(() -> follow(bootstrap, isolation, ofInterest, following), threadName);
        reader.start();
        following.await();
    }

    /** Instance id to {@link System#nanoTime()} of its completion's arrival; notified on each poll that brought some. */
    Map<String, Long> completedAt() {
        return completedAt;
    }

    /** Waits, without spinning, until every one of {@code ids} has completed or {@link System#nanoTime()} passes {@code deadline}. */
    void awaitAll(List<String> ids, long deadline) throws InterruptedException {
        List<String> open = new java.util.ArrayList<>(ids);
        while (true) {
            open.removeIf(completedAt::containsKey);
            long left = deadline - System.nanoTime();
            if (open.isEmpty() || left <= 0) {
                return;
            }
            synchronized (completedAt) {
                if (!completedAt.containsKey(open.get(0))) {
                    completedAt.wait(Math.max(1, Math.min(50, left / 1_000_000)));
                }
            }
        }
    }

    private void follow(String bootstrap, String isolation, Predicate<String> ofInterest, CountDownLatch following) {
        Map<String, Object> config = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation);
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(config, new StringDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(Topics.EVENTS).stream()
                    .map(info -> new TopicPartition(Topics.EVENTS, info.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToEnd(partitions);
            partitions.forEach(consumer::position);
            following.countDown();
            while (running.get()) {
                boolean completions = false;
                for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(50))) {
                    // Only instance completions matter here; a cheap look at the bytes spares parsing the other seven
                    // events of each instance (a step's completion also reads "to":"completed").
                    if (!ofInterest.test(record.key()) || !contains(record.value(), INSTANCE_EVENT) || !contains(record.value(), COMPLETED)) {
                        continue;
                    }
                    CloudEvent event = StateChangeEvents.read(record.value());
                    if (event.getType().equals(StateChangeEvents.INSTANCE_STATE_CHANGED)
                            && StateChangeEvents.data(event, InstanceStateChanged.class).to() == InstanceState.COMPLETED) {
                        completedAt.putIfAbsent(record.key(), System.nanoTime());
                        completions = true;
                    }
                }
                if (completions) {
                    synchronized (completedAt) {
                        completedAt.notifyAll();
                    }
                }
            }
        }
    }

    private static boolean contains(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i <= haystack.length - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    @Override
    public void close() throws InterruptedException {
        running.set(false);
        reader.join(5_000);
    }
}
