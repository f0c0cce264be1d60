package dev.sopline.gateway.stream;

import dev.sopline.gateway.auth.TokenRegistry;
import dev.sopline.gateway.config.SopProperties;
import dev.sopline.gateway.store.TopicTail;
import dev.sopline.schemas.event.StateChangeEvents;
import dev.sopline.schemas.topic.Topics;
import dev.sopline.schemas.json.Json;
import io.cloudevents.CloudEvent;
import dev.sopline.gateway.web.ApiException;
import dev.sopline.gateway.webhook.WorkspaceSendSlots;
import dev.sopline.schemas.command.ErrorCodes;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import dev.sopline.gateway.config.StopsConcurrently;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.context.event.EventListener;
import org.springframework.scheduling.concurrent.CustomizableThreadFactory;
import org.springframework.stereotype.Component;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Live state changes for HTTP clients: one reader of {@code sop.events} per gateway replica (every partition, from
 * the end, committed records only) hands each event to the server-sent-event streams open on this replica for its
 * workspace, or for its instance.
 *
 * <p>The reader only queues: each stream has its own bounded queue ({@link StreamSubscriber}), sent from a small
 * shared pool of sender threads, so a client that stops reading never holds up the reader or anyone else's stream.
 * A send to a healthy client only copies into a socket buffer, so a few threads serve hundreds of streams without a
 * thread each. {@link SseEmitter} writes block, and a write to a client that stopped reading blocks its sender thread
 * until the servlet container's write timeout (Tomcat's connection timeout). A watchdog ends such a stream once one
 * send has been stuck for {@link #STALL_LIMIT}, and a stream whose queue fills up ends at once: nothing more is
 * queued for it, so a stuck client holds at most one sender thread, and only until the container gives up on the
 * write. The pool is sized generously for that: until {@link #SENDERS} clients are stuck at once, everyone else still
 * has a sender thread; threads are started only while streams are busy.
 *
 * <p>The same watchdog ends the streams of a token that was revoked or expired, within {@link #CHECK_EVERY} plus
 * the time a revocation takes to reach this replica's token table.
 */
@Component
public class EventStream implements StopsConcurrently {

    public static final String EVENT_NAME = "state_changed";

    private static final Logger LOG = LoggerFactory.getLogger(EventStream.class);
    private static final int SENDERS = 32;
    /** Only events holding this text are read to leave callback ids out; most hold none. */
    private static final String CALLBACK_ID = "\"callback_id\"";
    /** The senders one workspace's streams may hold at once ({@link WorkspaceSendSlots}). */
    static final int SENDERS_PER_WORKSPACE = 8;
    private static final Duration SHARE_TAKEN_RETRY = Duration.ofMillis(50);
    private final WorkspaceSendSlots shares = new WorkspaceSendSlots(SENDERS_PER_WORKSPACE);
    /**
     * Streams open at once on one replica: per token, per workspace, in all. Each open stream holds its connection,
     * its queue and the container's buffers; without a bound one token opening streams and never closing them filled
     * a 512 MB heap at about 2,900 and stopped the whole platform. The bounds leave room for every browser tab and
     * integration a team runs, and keep streams to a few hundred MB at most.
     */
    public static final int PER_TOKEN = 50;
    public static final int PER_WORKSPACE = 250;
    public static final int TOTAL = 1_000;
    private static final Duration STALL_LIMIT = Duration.ofSeconds(5);
    private static final Duration CHECK_EVERY = Duration.ofMillis(250);

    private final SopProperties properties;
    private final TokenRegistry tokens;
    private final Set<StreamSubscriber> subscribers = ConcurrentHashMap.newKeySet();
    private final TopicTail tail = new TopicTail();
    private final ThreadPoolExecutor senders;
    private ScheduledExecutorService watchdog;

    public EventStream(SopProperties properties, TokenRegistry tokens) {
        this.properties = properties;
        this.tokens = tokens;
        CustomizableThreadFactory threads = new CustomizableThreadFactory("event-stream-sender-");
        threads.setDaemon(true);
        this.senders = new ThreadPoolExecutor(SENDERS, SENDERS, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), threads);
        // Threads only while streams are busy: an idle gateway keeps none.
        this.senders.allowCoreThreadTimeOut(true);
    }

    /**
     * A stream of the workspace's changes, or of one instance's when {@code instanceId} is given, open while the
     * token {@code tokenId} that asked for it stays usable. Without {@code showsCallbacks} (a viewer's token), the
     * events leave out webhook steps' callback ids, as the API's views leave out their {@code callback_url}.
     */
    public SseEmitter subscribe(String workspace, String instanceId, String tokenId, boolean showsCallbacks, Duration timeout) {
        SseEmitter emitter = new SseEmitter(timeout.toMillis());
        StreamSubscriber subscriber = new StreamSubscriber(workspace, instanceId, Objects.requireNonNull(tokenId), showsCallbacks, emitter,
                senders, shares, this::later);
        admit(subscriber);
        emitter.onCompletion(() -> forget(subscriber));
        emitter.onError(error -> forget(subscriber));
        emitter.onTimeout(() -> {
            forget(subscriber);
            // Ends the stream as the end of its lifetime; left open, Spring fails the request with a timeout error.
            emitter.complete();
        });
        try {
            // An opening comment flushes the headers, so clients know the stream is open before the first change.
            emitter.send(SseEmitter.event().comment("open"));
        } catch (IOException e) {
            forget(subscriber);
            return emitter;
        }
        return emitter;
    }

    /** Counts the stream in, or refuses it before anything is sent: 429 past a token's or a workspace's bound, 503 past all. */
    private synchronized void admit(StreamSubscriber subscriber) {
        int total = 0;
        int workspace = 0;
        int token = 0;
        for (StreamSubscriber open : subscribers) {
            total++;
            if (open.workspace().equals(subscriber.workspace())) {
                workspace++;
                if (open.tokenId().equals(subscriber.tokenId())) {
                    token++;
                }
            }
        }
        if (token >= PER_TOKEN) {
            throw new ApiException(429, ErrorCodes.RATE_LIMITED,
                    "Expected at most %d event streams open per token; close one before opening another".formatted(PER_TOKEN));
        }
        if (workspace >= PER_WORKSPACE) {
            throw new ApiException(429, ErrorCodes.RATE_LIMITED,
                    "Expected at most %d event streams open per workspace; close one before opening another".formatted(PER_WORKSPACE));
        }
        if (total >= TOTAL) {
            throw new ApiException(503, ErrorCodes.UNAVAILABLE, "This gateway serves as many event streams as it can; retry later or elsewhere");
        }
        subscribers.add(subscriber);
    }

    @Override
    public void start() {
        tail.start(properties.kafka().bootstrapServers(), Topics.EVENTS, TopicTail.Visibility.COMMITTED, record -> {
            if (!subscribers.isEmpty()) {
                dispatch(record);
            }
        });
        CustomizableThreadFactory threads = new CustomizableThreadFactory("event-stream-watchdog-");
        threads.setDaemon(true);
        watchdog = Executors.newSingleThreadScheduledExecutor(threads);
        watchdog.scheduleWithFixedDelay(this::check, CHECK_EVERY.toMillis(), CHECK_EVERY.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Throws on a record that is not a state change; the tail logs and skips it. */
    private void dispatch(ConsumerRecord<String, byte[]> record) {
        CloudEvent event = StateChangeEvents.read(record.value());
        String workspace = StateChangeEvents.workspaceOf(event);
        String json = new String(record.value(), StandardCharsets.UTF_8);
        StreamSubscriber.Event queued = new StreamSubscriber.Event(event.getId(), json);
        StreamSubscriber.Event withoutCallbacks = null;
        for (StreamSubscriber subscriber : subscribers) {
            if (!subscriber.wants(workspace, record.key())) {
                continue;
            }
            StreamSubscriber.Event sent = queued;
            if (!subscriber.showsCallbacks() && json.contains(CALLBACK_ID)) {
                if (withoutCallbacks == null) {
                    withoutCallbacks = new StreamSubscriber.Event(event.getId(), withoutCallbackIds(json));
                }
                sent = withoutCallbacks;
            }
            if (!subscriber.offer(sent)) {
                close(subscriber, "it fell " + StreamSubscriber.QUEUE_CAPACITY + " events behind");
            }
        }
    }

    /**
     * The event without its steps' {@code callback_id} (the step of a step's change, the steps of an instance's): what
     * a token that may not resolve steps is sent. Inputs and outputs are left as they are, whatever their names.
     */
    static String withoutCallbackIds(String json) {
        JsonNode tree = Json.mapper().readTree(json);
        JsonNode data = tree.path("data");
        withoutCallbackId(data.path("step"));
        for (JsonNode step : data.path("instance").path("steps")) {
            withoutCallbackId(step);
        }
        return Json.mapper().writeValueAsString(tree);
    }

    private static void withoutCallbackId(JsonNode step) {
        if (step instanceof ObjectNode object) {
            object.remove("callback_id");
        }
    }

    /** Ends streams whose client stopped reading or whose token is no longer usable. */
    private void check() {
        Instant now = Instant.now();
        long nowNanos = System.nanoTime();
        for (StreamSubscriber subscriber : subscribers) {
            try {
                if (subscriber.isClosed()) {
                    subscribers.remove(subscriber);
                } else if (!tokenUsable(subscriber, now)) {
                    close(subscriber, "its token was revoked or expired");
                } else if (subscriber.isStalled(nowNanos, STALL_LIMIT)) {
                    close(subscriber, "it has not read for " + STALL_LIMIT.toSeconds() + " s");
                }
            } catch (RuntimeException e) {
                // One odd stream must not stop the watchdog, which a scheduled executor would never run again.
                LOG.warn("Closing an event stream that could not be checked", e);
                close(subscriber, "it could not be checked");
            }
        }
    }

    private boolean tokenUsable(StreamSubscriber subscriber, Instant now) {
        return tokens.find(subscriber.workspace(), subscriber.tokenId()).filter(token -> token.isUsableAt(now)).isPresent();
    }

    private void close(StreamSubscriber subscriber, String reason) {
        subscribers.remove(subscriber);
        subscriber.close();
        LOG.info("Closed an event stream of workspace '{}': {}", subscriber.workspace(), reason);
    }

    /** Runs the task a little later on the watchdog's thread; once streams are stopping, not at all. */
    private void later(Runnable task) {
        ScheduledExecutorService scheduler = watchdog;
        if (scheduler == null) {
            return;
        }
        try {
            scheduler.schedule(task, SHARE_TAKEN_RETRY.toMillis(), TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.RejectedExecutionException stopping) {
            LOG.debug("Event streams are stopping; a waiting send is dropped");
        }
    }

    private void forget(StreamSubscriber subscriber) {
        subscribers.remove(subscriber);
        subscriber.ended();
    }

    /** Whether events still reach the streams: the reader of {@code sop.events} is following it. */
    public boolean isHealthy() {
        return tail.isHealthy();
    }

    /**
     * Ends every open stream as soon as the gateway begins to stop. Streams never end by themselves, so the web
     * server's graceful shutdown would otherwise wait out its whole period on them; ended, clients reconnect elsewhere.
     */
    @EventListener(ContextClosedEvent.class)
    public void endStreamsOnShutdown() {
        for (StreamSubscriber subscriber : subscribers) {
            subscriber.close();
        }
    }

    @Override
    public void stop() {
        tail.stop();
        if (watchdog != null) {
            watchdog.shutdownNow();
        }
        for (StreamSubscriber subscriber : subscribers) {
            subscriber.close();
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
