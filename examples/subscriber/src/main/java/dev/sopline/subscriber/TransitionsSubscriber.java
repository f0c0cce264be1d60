package dev.sopline.subscriber;

import io.cloudevents.CloudEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Follows a Sopline events topic and prints each instance's transitions, one line per event, as they are committed.
 *
 * <p>Settings, from the environment: {@code KAFKA_BOOTSTRAP_SERVERS} (default {@code localhost:29092}, the standalone's
 * embedded broker), {@code SOP_EVENTS_TOPIC} (default {@code sop.events}; {@code sop.events.<workspace>} for one
 * workspace), {@code SOP_SUBSCRIBER_GROUP} (default {@code sop-example-subscriber}). An optional argument, an
 * ISO-8601 time such as {@code 2026-11-23T18:00:00Z}, replays from that time instead of going on from the group's
 * committed position.
 */
public final class TransitionsSubscriber {

    private TransitionsSubscriber() {}

    public static void main(String[] args) {
        Map<String, String> env = System.getenv();
        String topic = env.getOrDefault("SOP_EVENTS_TOPIC", "sop.events");
        Instant replayFrom = args.length > 0 ? Instant.parse(args[0]) : null;
        try (KafkaConsumer<String, CloudEvent> consumer = new KafkaConsumer<>(settings(env), new StringDeserializer(),
                new StateChangeDeserializer())) {
            Thread main = Thread.currentThread();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                consumer.wakeup();
                try {
                    main.join(5_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }));
            consumer.subscribe(List.of(topic), new ReplayFrom(consumer, replayFrom));
            System.out.printf("Following %s%s%n", topic, replayFrom == null ? "" : " from " + replayFrom);
            while (true) {
                for (ConsumerRecord<String, CloudEvent> record : consumer.poll(Duration.ofSeconds(1))) {
                    System.out.println(Transition.of(record.value()));
                }
                consumer.commitAsync();
            }
        } catch (WakeupException stopping) {
            // Ctrl-C: the consumer is closed by the try block, and leaves its group at once.
        }
    }

    private static Properties settings(Map<String, String> env) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, env.getOrDefault("KAFKA_BOOTSTRAP_SERVERS", "localhost:29092"));
        props.put(ConsumerConfig.GROUP_ID_CONFIG, env.getOrDefault("SOP_SUBSCRIBER_GROUP", "sop-example-subscriber"));
        // Only what the engine committed: a decision it crashed in the middle of is aborted and written again, and
        // read_uncommitted would show both copies.
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        return props;
    }

    /** With a replay time, each assigned partition starts at its first event at or after that time. */
    private record ReplayFrom(KafkaConsumer<?, ?> consumer, Instant from) implements ConsumerRebalanceListener {

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            if (from == null || partitions.isEmpty()) {
                return;
            }
            Map<TopicPartition, OffsetAndTimestamp> offsets = consumer.offsetsForTimes(partitions.stream()
                    .collect(Collectors.toMap(Function.identity(), partition -> from.toEpochMilli())));
            offsets.forEach((partition, offset) -> {
                if (offset == null) {
                    consumer.seekToEnd(List.of(partition));
                } else {
                    consumer.seek(partition, offset.offset());
                }
            });
        }

        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            // the loop commits after each poll
        }
    }
}
