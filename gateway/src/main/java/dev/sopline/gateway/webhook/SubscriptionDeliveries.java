package dev.sopline.gateway.webhook;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The deliveries of one subscription: sent one at a time, in the order their events were read, so a receiver sees
 * one instance's changes in order; what waits meanwhile waits here, and only here, so a receiver that hangs or fails
 * delays its own subscription and no other.
 *
 * <p>A failed attempt is retried with exponential backoff (0.5 s doubling, {@value #ATTEMPTS} attempts in all),
 * each retry scheduled on the shared executor rather than waited for on a thread, then given up with a WARN.
 *
 * <p>At most {@value #CAPACITY} deliveries wait, holding at most {@value #MAX_WAITING_BYTES} bytes of events together
 * (an event carries its instance, up to the instance's budget of 256 KiB: a thousand of those, for a receiver that
 * hangs, held a quarter of a gigabyte of the heap every workspace shares; a workspace's {@value
 * WebhookController#MAX_PER_WORKSPACE} subscriptions now hold 40 MiB at most). When one more arrives, the <em>oldest</em>
 * waiting ones are dropped, as many as it takes, with a WARN: a receiver that has been away that long learns the most from the newest state changes, and refusing
 * the newest would leave it with only stale ones. Dropping is the one way a delivery is lost without every attempt
 * having been made: at-least-once holds for receivers that keep up.
 *
 * <p>Once the subscription is deleted, whatever waits is given up without being sent.
 */
final class SubscriptionDeliveries {

    static final int CAPACITY = 1000;
    static final int MAX_WAITING_BYTES = 2 * 1024 * 1024;
    static final int ATTEMPTS = 6;
    private static final Duration FIRST_BACKOFF = Duration.ofMillis(500);
    private static final Duration SHARE_TAKEN_RETRY = Duration.ofMillis(100);
    private static final Logger LOG = LoggerFactory.getLogger(SubscriptionDeliveries.class);

    private final String subscriptionId;
    private final Function<String, Optional<WebhookSubscription>> subscriptions;
    private final DeliveryAttempt attempts;
    private final ScheduledExecutorService executor;
    private final WorkspaceSendSlots slots;
    private final Runnable whenDeleted;
    /** Deliveries dropped since the last warning: a receiver away for long drops thousands, and the log needs one line. */
    private long droppedUnreported;
    private final Deque<Delivery> waiting = new ArrayDeque<>();
    private long waitingBytes;
    /** True while a delivery of this subscription is being sent or waits for its next attempt. */
    private boolean sending;
    private boolean deleted;

    /**
     * @param subscriptions the subscription of an id as it is now; empty once deleted
     * @param whenDeleted called once this subscription turns out to be deleted
     */
    SubscriptionDeliveries(String subscriptionId, Function<String, Optional<WebhookSubscription>> subscriptions, DeliveryAttempt attempts,
                           ScheduledExecutorService executor, WorkspaceSendSlots slots, Runnable whenDeleted) {
        this.subscriptionId = subscriptionId;
        this.subscriptions = subscriptions;
        this.attempts = attempts;
        this.executor = executor;
        this.slots = slots;
        this.whenDeleted = whenDeleted;
    }

    synchronized void add(Delivery delivery) {
        if (deleted) {
            delivery.finish();
            return;
        }
        while (!waiting.isEmpty() && (waiting.size() == CAPACITY || waitingBytes + delivery.body().length > MAX_WAITING_BYTES)) {
            Delivery oldest = waiting.removeFirst();
            waitingBytes -= oldest.body().length;
            if (droppedUnreported++ % CAPACITY == 0) {
                LOG.warn("Webhook {} has {} deliveries of {} bytes waiting, at most {} or {} bytes wait; dropping the oldest ones, {} first "
                                + "({} dropped so far, one line per {})",
                        subscriptionId, waiting.size() + 1, waitingBytes + oldest.body().length, CAPACITY, MAX_WAITING_BYTES, oldest.id(),
                        droppedUnreported, CAPACITY);
            }
            oldest.finish();
        }
        waiting.addLast(delivery);
        waitingBytes += delivery.body().length;
        if (!sending) {
            sending = true;
            run(this::sendNext);
        }
    }

    private void sendNext() {
        Delivery next;
        synchronized (this) {
            next = waiting.pollFirst();
            if (next == null) {
                sending = false;
                return;
            }
            waitingBytes -= next.body().length;
        }
        attempt(next, 1);
    }

    private void attempt(Delivery delivery, int attempt) {
        Optional<WebhookSubscription> subscription = subscriptions.apply(subscriptionId);
        if (subscription.isEmpty()) {
            giveUpAll(delivery);
            return;
        }
        String workspace = subscription.get().workspace();
        if (!slots.tryTake(workspace)) {
            // The workspace's share of the senders is taken: this thread goes to another workspace's turn meanwhile.
            schedule(() -> attempt(delivery, attempt), SHARE_TAKEN_RETRY);
            return;
        }
        DeliveryAttempt.Outcome outcome;
        try {
            outcome = make(subscription.get(), delivery, attempt);
        } finally {
            slots.give(workspace);
        }
        if (outcome == DeliveryAttempt.Outcome.FAILED && attempt < ATTEMPTS) {
            Duration backoff = FIRST_BACKOFF.multipliedBy(1L << (attempt - 1));
            schedule(() -> attempt(delivery, attempt + 1), backoff);
            return;
        }
        if (outcome == DeliveryAttempt.Outcome.FAILED) {
            LOG.warn("Gave up delivering {} to webhook {} after {} attempts", delivery.id(), subscriptionId, ATTEMPTS);
        }
        delivery.finish();
        // Through the executor rather than a loop, so other subscriptions' sends take turns with this one's.
        run(this::sendNext);
    }

    /** An attempt that throws counts as failed: the subscription's later deliveries must not wait for it forever. */
    private DeliveryAttempt.Outcome make(WebhookSubscription subscription, Delivery delivery, int attempt) {
        try {
            return attempts.make(subscription, delivery, attempt);
        } catch (RuntimeException e) {
            LOG.warn("Delivery {} to webhook {} failed unexpectedly (attempt {})", delivery.id(), subscriptionId, attempt, e);
            return DeliveryAttempt.Outcome.FAILED;
        }
    }

    private void giveUpAll(Delivery current) {
        List<Delivery> givenUp;
        synchronized (this) {
            deleted = true;
            sending = false;
            givenUp = new ArrayList<>(waiting);
            waiting.clear();
            waitingBytes = 0;
        }
        current.finish();
        givenUp.forEach(Delivery::finish);
        whenDeleted.run();
        LOG.debug("Webhook {} was deleted; {} waiting deliveries are given up", subscriptionId, givenUp.size());
    }

    private void run(Runnable task) {
        schedule(task, Duration.ZERO);
    }

    private void schedule(Runnable task, Duration delay) {
        try {
            executor.schedule(task, delay.toMillis(), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            LOG.debug("Deliveries are stopping; webhook {} sends no more", subscriptionId);
        }
    }
}
