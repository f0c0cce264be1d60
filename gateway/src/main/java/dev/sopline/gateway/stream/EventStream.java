package dev.sopline.gateway.stream;

import dev.sopline.gateway.config.SopProperties;
import dev.sopline.gateway.store.TopicTail;
import dev.sopline.schemas.event.StateChangeEvents;
import dev.sopline.schemas.topic.Topics;
import io.cloudevents.CloudEvent;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
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

    public static final String EVENT_NAME = "state_changed";

    private record Subscriber(String workspace, String instanceId, SseEmitter emitter) {}

    private final SopProperties properties;
    private final Set<Subscriber> subscribers = ConcurrentHashMap.newKeySet();
    private final TopicTail tail = new TopicTail();

    public EventStream(SopProperties properties) {
        this.properties = properties;
    }

    /** A stream of the workspace's changes, or of one instance's when {@code instanceId} is given. */
    public SseEmitter subscribe(String workspace, String instanceId, Duration timeout) {
        SseEmitter emitter = new SseEmitter(timeout.toMillis());
        Subscriber subscriber = new Subscriber(workspace, instanceId, emitter);
        subscribers.add(subscriber);
        emitter.onCompletion(() -> subscribers.remove(subscriber));
        emitter.onTimeout(() -> {
            subscribers.remove(subscriber);
            // Ends the stream as the end of its lifetime; left open, Spring fails the request with a timeout error.
            emitter.complete();
        });
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
        tail.start(properties.kafka().bootstrapServers(), Topics.EVENTS, TopicTail.Visibility.COMMITTED, record -> {
            if (!subscribers.isEmpty()) {
                dispatch(record.key(), record.value());
            }
        });
    }

    private void dispatch(String instanceId, byte[] body) {
        CloudEvent event;
        try {
            event = StateChangeEvents.read(body);
        } catch (RuntimeException e) {
            return;
        }
        String workspace = StateChangeEvents.workspaceOf(event);
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
        tail.stop();
        for (Subscriber subscriber : subscribers) {
            try {
                subscriber.emitter().complete();
            } catch (RuntimeException e) {
                // The client left already and the container recycled its response: nothing is left to end.
            }
        }
        subscribers.clear();
    }

    @Override
    public boolean isRunning() {
        return tail.isRunning();
    }

    @Override
    public int getPhase() {
        return Integer.MIN_VALUE + 3000;
    }
}
