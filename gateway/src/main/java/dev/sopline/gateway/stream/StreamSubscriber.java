package dev.sopline.gateway.stream;

import java.io.IOException;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import dev.sopline.gateway.webhook.WorkspaceSendSlots;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.springframework.http.MediaType;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * One open event stream: its own bounded queue of events, sent by at most one task of the shared sender pool at a
 * time, so the events of one stream stay in order and a client that stops reading holds up only its own sends.
 *
 * <p>Closing never waits for the client: it only marks the stream closed and drops what is queued; the stream is
 * ended (completed) by its sender task, at once when idle, otherwise as soon as the send under way returns.
 */
final class StreamSubscriber {

    /** Room for bursts (the engine commits events in batches); a client this far behind is not reading. */
    static final int QUEUE_CAPACITY = 256;

    /** One event as every stream sends it: the same JSON, shared by all the queues it is in. */
    record Event(String id, String json) {}

    private final String workspace;
    private final String instanceId;
    private final String tokenId;
    private final boolean showsCallbacks;
    private final SseEmitter emitter;
    private final Executor senders;
    private final WorkspaceSendSlots shares;
    private final Consumer<Runnable> later;
    private final BlockingQueue<Event> queue = new ArrayBlockingQueue<>(QUEUE_CAPACITY);
    private final AtomicBoolean draining = new AtomicBoolean();
    private final AtomicBoolean ended = new AtomicBoolean();
    private volatile boolean closed;
    private volatile boolean sending;
    private volatile long sendStartedNanos;

    /**
     * @param showsCallbacks whether the token may resolve steps (worker and above), and so be sent webhook steps'
     *     callback ids, the credential of their callbacks
     * @param shares how many senders one workspace's streams may hold at once
     * @param later runs a task a little later, on no sender: a drain whose workspace's share is taken waits there
     */
    StreamSubscriber(String workspace, String instanceId, String tokenId, boolean showsCallbacks, SseEmitter emitter, Executor senders,
                     WorkspaceSendSlots shares, Consumer<Runnable> later) {
        this.workspace = workspace;
        this.instanceId = instanceId;
        this.tokenId = tokenId;
        this.showsCallbacks = showsCallbacks;
        this.emitter = emitter;
        this.senders = senders;
        this.shares = shares;
        this.later = later;
    }

    String workspace() {
        return workspace;
    }

    String tokenId() {
        return tokenId;
    }

    boolean showsCallbacks() {
        return showsCallbacks;
    }

    /** Whether an event of this workspace and instance belongs on this stream; null-safe on both sides. */
    boolean wants(String eventWorkspace, String eventInstanceId) {
        return eventWorkspace != null && eventWorkspace.equals(workspace)
                && (instanceId == null || Objects.equals(instanceId, eventInstanceId));
    }

    /** Queues the event for sending; false when the queue is full, which means the client is not reading. */
    boolean offer(Event event) {
        if (closed) {
            return true;
        }
        if (!queue.offer(event)) {
            return false;
        }
        drainSoon();
        return true;
    }

    /** Whether a send has been under way, unfinished, for longer than the limit: the client stopped reading. */
    boolean isStalled(long nowNanos, Duration limit) {
        return sending && nowNanos - sendStartedNanos > limit.toNanos();
    }

    boolean isClosed() {
        return closed;
    }

    /** Stops sending and ends the stream, without waiting for the client. */
    void close() {
        closed = true;
        queue.clear();
        drainSoon();
    }

    /** For when the container has ended the stream itself: nothing is left to send or end. */
    void ended() {
        ended.set(true);
        closed = true;
        queue.clear();
    }

    private void drainSoon() {
        if (draining.compareAndSet(false, true)) {
            try {
                senders.execute(this::drain);
            } catch (RejectedExecutionException e) {
                // The pool is shut down with the gateway; the container ends the stream.
                draining.set(false);
            }
        }
    }

    private void drain() {
        if (!shares.tryTake(workspace)) {
            // Its workspace's streams hold their share of the senders (clients that stopped reading block a sender
            // until the container's write timeout): this one waits on no thread and tries again.
            draining.set(false);
            later.accept(this::drainSoon);
            return;
        }
        try {
            drainHoldingShare();
        } finally {
            shares.give(workspace);
        }
    }

    private void drainHoldingShare() {
        do {
            Event event;
            while (!closed && (event = queue.poll()) != null) {
                send(event);
            }
            if (closed) {
                end();
            }
            draining.set(false);
            // An event queued or a close made after the loop looked, but before draining was cleared, is ours too.
        } while ((!queue.isEmpty() || closed && !ended.get()) && draining.compareAndSet(false, true));
    }

    private void send(Event event) {
        sendStartedNanos = System.nanoTime();
        sending = true;
        try {
            emitter.send(SseEmitter.event().name(EventStream.EVENT_NAME).id(event.id()).data(event.json(), MediaType.APPLICATION_JSON));
        } catch (IOException | IllegalStateException e) {
            // The client is gone, or the container ended the stream: it ends the response itself.
            ended();
        } finally {
            sending = false;
        }
    }

    private void end() {
        if (ended.compareAndSet(false, true)) {
            try {
                emitter.complete();
            } catch (RuntimeException e) {
                // The client left already and the container recycled its response: nothing is left to end.
            }
        }
    }
}
