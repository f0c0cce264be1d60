package dev.sopline.gateway.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sopline.gateway.webhook.DeliveryAttempt.Outcome;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SubscriptionDeliveriesTest {

    private static final WebhookSubscription SUBSCRIPTION = new WebhookSubscription("whk_1", "default", "https://hooks.example.com/hook",
            List.of("state_changed"), "a-receiver-secret-of-some-length", Instant.EPOCH);

    private final ScheduledExecutorService executor = Executors.newScheduledThreadPool(4);
    /** Attempts made, as "delivery id#attempt". */
    private final Queue<String> attempts = new ConcurrentLinkedQueue<>();
    /** Deliveries finished, by id, in the order they finished. */
    private final Queue<String> finished = new ConcurrentLinkedQueue<>();

    @AfterEach
    void stopExecutor() {
        executor.shutdownNow();
    }

    @Test
    void shouldSendOneAtATimeInTheOrderAdded() {
        AtomicInteger out = new AtomicInteger();
        AtomicInteger mostOut = new AtomicInteger();
        SubscriptionDeliveries deliveries = deliveries(subscribed(), (subscription, delivery, attempt) -> {
            mostOut.accumulateAndGet(out.incrementAndGet(), Math::max);
            attempts.add(delivery.id() + "#" + attempt);
            out.decrementAndGet();
            return Outcome.DELIVERED;
        });
        List<String> ids = new ArrayList<>();

        for (int i = 0; i < 50; i++) {
            ids.add("d" + i);
            deliveries.add(delivery("d" + i));
        }

        await().atMost(Duration.ofSeconds(5)).until(() -> finished.size() == 50);
        assertThat(finished).containsExactlyElementsOf(ids);
        assertThat(attempts).containsExactlyElementsOf(ids.stream().map(id -> id + "#1").toList());
        assertThat(mostOut).hasValue(1);
    }

    @Test
    void shouldRetryAFailedDeliveryBeforeSendingTheNext() {
        SubscriptionDeliveries deliveries = deliveries(subscribed(), recording(Outcome.FAILED, Outcome.DELIVERED));

        deliveries.add(delivery("d1"));
        deliveries.add(delivery("d2"));

        await().atMost(Duration.ofSeconds(5)).until(() -> finished.size() == 2);
        assertThat(attempts).containsExactly("d1#1", "d1#2", "d2#1");
        assertThat(finished).containsExactly("d1", "d2");
    }

    @Test
    void shouldNotRetryADeliveryToAForbiddenDestination() {
        SubscriptionDeliveries deliveries = deliveries(subscribed(), recording(Outcome.REFUSED));

        deliveries.add(delivery("d1"));

        await().atMost(Duration.ofSeconds(5)).until(() -> finished.size() == 1);
        assertThat(attempts).containsExactly("d1#1");
    }

    @Test
    void shouldCountAnAttemptThatThrowsAsFailed() {
        AtomicInteger calls = new AtomicInteger();
        SubscriptionDeliveries deliveries = deliveries(subscribed(), (subscription, delivery, attempt) -> {
            attempts.add(delivery.id() + "#" + attempt);
            if (calls.getAndIncrement() == 0) {
                throw new IllegalStateException("broken");
            }
            return Outcome.DELIVERED;
        });

        deliveries.add(delivery("d1"));
        deliveries.add(delivery("d2"));

        await().atMost(Duration.ofSeconds(5)).until(() -> finished.size() == 2);
        assertThat(attempts).containsExactly("d1#1", "d1#2", "d2#1");
    }

    @Test
    void shouldDropTheOldestWaitingDeliveryWhenFull() {
        CountDownLatch released = new CountDownLatch(1);
        SubscriptionDeliveries deliveries = oneOutUntil(released);

        for (int i = 0; i <= SubscriptionDeliveries.CAPACITY; i++) {
            deliveries.add(delivery("w" + i));
        }

        assertThat(finished).as("dropped while the first is still out").containsExactly("w0");
        released.countDown();
        await().atMost(Duration.ofSeconds(10)).until(() -> finished.size() == SubscriptionDeliveries.CAPACITY + 2);
        assertThat(attempts).doesNotContain("w0#1").contains("w1#1", "w" + SubscriptionDeliveries.CAPACITY + "#1");
    }

    @Test
    void shouldDropTheOldestWaitingDeliveriesWhenTheirEventsPassTheBytesThatMayWait() {
        CountDownLatch released = new CountDownLatch(1);
        SubscriptionDeliveries deliveries = oneOutUntil(released);

        // Events near an instance's budget of 256 KiB, for a receiver that does not answer: eight fit in what may wait.
        int large = 256 * 1024;
        for (int i = 0; i < 10; i++) {
            String id = "big" + i;
            deliveries.add(new Delivery(id, new byte[large], () -> finished.add(id)));
        }

        assertThat(finished).as("dropped while the first is still out, oldest first").containsExactly("big0", "big1");
        released.countDown();
        await().atMost(Duration.ofSeconds(10)).until(() -> finished.size() == 11);
        assertThat(attempts).doesNotContain("big0#1", "big1#1").contains("big2#1", "big9#1");
    }

    @Test
    void shouldGiveUpWaitingDeliveriesOnceTheSubscriptionIsDeleted() {
        AtomicReference<Optional<WebhookSubscription>> current = new AtomicReference<>(Optional.of(SUBSCRIPTION));
        CountDownLatch released = new CountDownLatch(1);
        SubscriptionDeliveries deliveries = deliveries(id -> current.get(), (subscription, delivery, attempt) -> {
            attempts.add(delivery.id() + "#" + attempt);
            waitFor(released);
            return Outcome.FAILED;
        });
        deliveries.add(delivery("d1"));
        deliveries.add(delivery("d2"));
        await().atMost(Duration.ofSeconds(5)).until(() -> attempts.contains("d1#1"));

        current.set(Optional.empty());
        released.countDown();

        await().atMost(Duration.ofSeconds(5)).until(() -> finished.size() == 2);
        assertThat(attempts).containsExactly("d1#1");
        deliveries.add(delivery("d3"));
        assertThat(finished).containsExactly("d1", "d2", "d3");
    }

    private SubscriptionDeliveries deliveries(Function<String, Optional<WebhookSubscription>> subscriptions, DeliveryAttempt attempt) {
        return new SubscriptionDeliveries(SUBSCRIPTION.id(), subscriptions, attempt, executor, new WorkspaceSendSlots(2), () -> {});
    }

    private static Function<String, Optional<WebhookSubscription>> subscribed() {
        return id -> Optional.of(SUBSCRIPTION);
    }

    /** Answers the given outcomes in turn, then DELIVERED. */
    private DeliveryAttempt recording(Outcome... outcomes) {
        AtomicInteger calls = new AtomicInteger();
        return (subscription, delivery, attempt) -> {
            attempts.add(delivery.id() + "#" + attempt);
            int call = calls.getAndIncrement();
            return call < outcomes.length ? outcomes[call] : Outcome.DELIVERED;
        };
    }

    /** Deliveries whose first, "out", is being sent to a receiver that answers once {@code released}; the rest wait. */
    private SubscriptionDeliveries oneOutUntil(CountDownLatch released) {
        SubscriptionDeliveries deliveries = deliveries(subscribed(), (subscription, delivery, attempt) -> {
            attempts.add(delivery.id() + "#" + attempt);
            waitFor(released);
            return Outcome.DELIVERED;
        });
        deliveries.add(delivery("out"));
        await().atMost(Duration.ofSeconds(5)).until(() -> attempts.contains("out#1"));
        return deliveries;
    }

    private Delivery delivery(String id) {
        return new Delivery(id, new byte[0], () -> finished.add(id));
    }

    private static void waitFor(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
