package dev.sopline.gateway.stream;

import dev.sopline.gateway.config.SopProperties;
import dev.sopline.schemas.event.StateChangeEvents;
import dev.sopline.schemas.topic.Topics;
import io.cloudevents.CloudEvent;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * Live state changes for HTTP clients: one reader of {@code sop.events} per gateway replica (every partition, from
 * the end, committed records only) hands each event to the server-sent-event streams open on this replica for its
 * workspace, or for its instance.
 */
@Component
public class EventStream implements SmartLifecycle {

    private static final Logger LOG = LoggerFactory.getLogger(EventStream.class);
    public static final String EVENT_NAME = "state_changed";

    private record Subscriber(String workspace, String instanceId, SseEmitter emitter) {}

    private final SopProperties properties;
    private final Set<Subscriber> subscribers = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean running = new AtomicBoolean();
    private Thread reader;

    public EventStream(SopProperties properties) {
        this.properties = properties;
    }

    /** A stream of the workspace's changes, or of one instance's when {@code instanceId} is given. */
    public SseEmitter subscribe(String workspace, String instanceId, Duration timeout) {
        SseEmitter emitter = new SseEmitter(timeout.toMillis());
        Subscriber subscriber = new Subscriber(workspace, instanceId, emitter);
        subscribers.add(subscriber);
        emitter.onCompletion(() -> subscribers.remove(subscriber));
        emitter.onTimeout(() -> subscribers.remove(subscriber));
        emitter.onError(error -> subscribers.remove(subscriber));
        try {
            // An opening comment flushes the headers, so clients know the stream is open before the first change.
            emitter.send(SseEmitter.event().comment("open"));
        } catch (IOException e) {
            subscribers.remove(subscriber);
        }
        return emitter;
    }

    @Override
    public void start() {
        running.set(true);
        CompletableFuture<Void> assigned = new CompletableFuture<>();
        reader = new Thread(() -> read(assigned), "event-stream");
        reader.setDaemon(true);
        reader.start();
        assigned.join();
    }

    private void read(CompletableFuture<Void> assigned) {
        Map<String, Object> config = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, properties.kafka().bootstrapServers(),
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 20);
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(config, new StringDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(Topics.EVENTS).stream()
                    .map(info -> new TopicPartition(Topics.EVENTS, info.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToEnd(partitions);
            partitions.forEach(consumer::position);
            assigned.complete(null);
            while (running.get()) {
                for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(100))) {
                    if (!subscribers.isEmpty()) {
                        dispatch(record.key(), record.value());
                    }
                }
            }
        } catch (RuntimeException e) {
            assigned.completeExceptionally(e);
            if (running.get()) {
                LOG.error("Reading state changes for live streams failed", e);
            }
        }
    }

    private void dispatch(String instanceId, byte[] body) {
        CloudEvent event;
        try {
            event = StateChangeEvents.read(body);
        } catch (RuntimeException e) {
            return;
        }
        String[] source = event.getSource().getPath().split("/");
        String workspace = source.length > 2 ? source[2] : "";
        String json = new String(body, StandardCharsets.UTF_8);
        for (Subscriber subscriber : subscribers) {
            if (subscriber.workspace().equals(workspace) && (subscriber.instanceId() == null || subscriber.instanceId().equals(instanceId))) {
                try {
                    subscriber.emitter().send(SseEmitter.event().name(EVENT_NAME).id(event.getId()).data(json, MediaType.APPLICATION_JSON));
                } catch (IOException | IllegalStateException e) {
                    subscribers.remove(subscriber);
                }
            }
        }
    }

    @Override
    public void stop() {
        running.set(false);
        subscribers.forEach(subscriber -> subscriber.emitter().complete());
        subscribers.clear();
        try {
            if (reader != null) {
                reader.join(5_000);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public boolean isRunning() {
        return running.get();
    }

    @Override
    public int getPhase() {
        return Integer.MIN_VALUE + 3000;
    }
}
