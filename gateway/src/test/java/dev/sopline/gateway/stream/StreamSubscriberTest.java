package dev.sopline.gateway.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/** One stream's queue and sending: a client that stops reading holds up only its own stream, and closing never waits. */
class StreamSubscriberTest {

    private final ExecutorService senders = Executors.newFixedThreadPool(3);
    private final dev.sopline.gateway.webhook.WorkspaceSendSlots shares = new dev.sopline.gateway.webhook.WorkspaceSendSlots(2);
    private final java.util.concurrent.ScheduledExecutorService later = Executors.newSingleThreadScheduledExecutor();
    private final CountDownLatch clientReads = new CountDownLatch(1);

    @AfterEach
    void release() {
        clientReads.countDown();
        senders.shutdownNow();
        later.shutdownNow();
    }

    @Test
    void shouldKeepSendingToOtherStreamsWhileOneClientIsStuck() {
        Emitter stuck = new Emitter(clientReads);
        Emitter reading = new Emitter(null);
        StreamSubscriber stuckStream = subscriber(stuck);
        StreamSubscriber readingStream = subscriber(reading);

        for (int i = 0; i < 10; i++) {
            stuckStream.offer(new StreamSubscriber.Event("e" + i, "{}"));
            readingStream.offer(new StreamSubscriber.Event("e" + i, "{}"));
        }

        await().atMost(Duration.ofSeconds(5)).until(() -> reading.sent.size() == 10);
        await().atMost(Duration.ofSeconds(5)).until(() -> stuck.sending);
        assertThat(stuckStream.isStalled(System.nanoTime() + Duration.ofSeconds(6).toNanos(), Duration.ofSeconds(5))).isTrue();
        assertThat(readingStream.isStalled(System.nanoTime() + Duration.ofSeconds(6).toNanos(), Duration.ofSeconds(5))).isFalse();
    }

    @Test
    void shouldKeepSendingToAnotherWorkspaceWhileOneWorkspacesStuckClientsHoldItsShareOfTheSenders() {
        // Three senders, two per workspace: three stuck clients of one workspace hold two senders, never the third.
        List<Emitter> stuck = List.of(new Emitter(clientReads), new Emitter(clientReads), new Emitter(clientReads));
        for (Emitter emitter : stuck) {
            stream("flooding", null, emitter).offer(new StreamSubscriber.Event("e", "{}"));
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> stuck.stream().anyMatch(emitter -> emitter.sending));
        Emitter other = new Emitter(null);
        StreamSubscriber otherStream = stream("other", null, other);

        for (int i = 0; i < 10; i++) {
            otherStream.offer(new StreamSubscriber.Event("o" + i, "{}"));
        }

        await().atMost(Duration.ofSeconds(5)).until(() -> other.sent.size() == 10);
        assertThat(stuck.stream().filter(emitter -> emitter.sending).count()).isEqualTo(2);
    }

    @Test
    void shouldRefuseEventsOnceAStuckClientsQueueIsFull() {
        Emitter stuck = new Emitter(clientReads);
        StreamSubscriber stream = subscriber(stuck);
        stream.offer(new StreamSubscriber.Event("in-flight", "{}"));
        await().atMost(Duration.ofSeconds(5)).until(() -> stuck.sending);

        for (int i = 0; i < StreamSubscriber.QUEUE_CAPACITY; i++) {
            assertThat(stream.offer(new StreamSubscriber.Event("e" + i, "{}"))).isTrue();
        }

        assertThat(stream.offer(new StreamSubscriber.Event("one too many", "{}"))).isFalse();
    }

    @Test
    void shouldEndTheStreamOnCloseOnceTheSendUnderWayReturnsAndSendNothingQueued() {
        Emitter stuck = new Emitter(clientReads);
        StreamSubscriber stream = subscriber(stuck);
        stream.offer(new StreamSubscriber.Event("in-flight", "{}"));
        stream.offer(new StreamSubscriber.Event("queued", "{}"));
        await().atMost(Duration.ofSeconds(5)).until(() -> stuck.sending);

        stream.close();
        assertThat(stuck.completed).as("closing does not wait for the client").isFalse();
        clientReads.countDown();

        await().atMost(Duration.ofSeconds(5)).until(() -> stuck.completed);
        assertThat(stuck.sent).hasSize(1);
    }

    @Test
    void shouldEndAnIdleStreamOnClose() {
        Emitter idle = new Emitter(null);
        StreamSubscriber stream = subscriber(idle);

        stream.close();

        await().atMost(Duration.ofSeconds(5)).until(() -> idle.completed);
        assertThat(stream.offer(new StreamSubscriber.Event("after close", "{}"))).isTrue();
        assertThat(idle.sent).isEmpty();
    }

    @Test
    void shouldMatchEventsOfItsWorkspaceAndInstanceOnlyNullSafely() {
        StreamSubscriber workspaceStream = stream("acme", null, new Emitter(null));
        StreamSubscriber instanceStream = stream("acme", "i-1", new Emitter(null));

        assertThat(workspaceStream.wants("acme", "i-2")).isTrue();
        assertThat(workspaceStream.wants(null, "i-2")).isFalse();
        assertThat(instanceStream.wants("acme", "i-1")).isTrue();
        assertThat(instanceStream.wants("acme", null)).isFalse();
        assertThat(stream(null, null, new Emitter(null)).wants(null, "i-1")).isFalse();
    }

    private StreamSubscriber subscriber(Emitter emitter) {
        return stream("acme", null, emitter);
    }

    private StreamSubscriber stream(String workspace, String instanceId, Emitter emitter) {
        return new StreamSubscriber(workspace, instanceId, "tok_1", true, emitter, senders, shares,
                task -> later.schedule(task, 20, java.util.concurrent.TimeUnit.MILLISECONDS));
    }

    /** Records what is sent; with a latch, each send blocks until it opens, like a client that stopped reading. */
    private static final class Emitter extends SseEmitter {
        private final CountDownLatch reads;
        final List<SseEventBuilder> sent = new CopyOnWriteArrayList<>();
        volatile boolean sending;
        volatile boolean completed;

        Emitter(CountDownLatch reads) {
            this.reads = reads;
        }

        @Override
        public void send(SseEventBuilder event) throws IOException {
            sending = true;
            try {
                if (reads != null) {
                    reads.await();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted", e);
            }
            sent.add(event);
            sending = false;
        }

        @Override
        public void complete() {
            completed = true;
        }
    }
}
