package dev.sopline.gateway.webhook;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Function;
import org.springframework.scheduling.concurrent.CustomizableThreadFactory;

/**
 * Every subscription's {@link SubscriptionDeliveries}, sent by one small pool of {@value #SENDERS} threads that also
 * fires the retries. The pool bounds how many HTTP requests are out at once across all subscriptions; as each
 * subscription has at most one out, and one workspace's subscriptions at most {@value #SENDERS_PER_WORKSPACE} at
 * once, receivers that hang in one workspace never hold up another's deliveries; within a workspace they hold up its
 * other subscriptions' turns by at most {@link WebhookSender#ATTEMPT_TIMEOUT} each.
 */
final class WebhookDeliveries implements AutoCloseable {

    static final int SENDERS = 8;
    /** The senders one workspace's deliveries may hold at once ({@link WorkspaceSendSlots}). */
    static final int SENDERS_PER_WORKSPACE = 2;

    private final Function<String, Optional<WebhookSubscription>> subscriptions;
    private final DeliveryAttempt attempts;
    private final ScheduledExecutorService executor;
    private final Map<String, SubscriptionDeliveries> bySubscription = new ConcurrentHashMap<>();
    private final WorkspaceSendSlots slots = new WorkspaceSendSlots(SENDERS_PER_WORKSPACE);

    /** @param subscriptions the subscription of an id as it is now; empty once deleted */
    WebhookDeliveries(Function<String, Optional<WebhookSubscription>> subscriptions, DeliveryAttempt attempts) {
        this.subscriptions = subscriptions;
        this.attempts = attempts;
        CustomizableThreadFactory threads = new CustomizableThreadFactory("webhook-sender-");
        threads.setDaemon(true);
        this.executor = Executors.newScheduledThreadPool(SENDERS, threads);
    }

    /** Queues a delivery behind the subscription's earlier ones; never blocks. */
    void add(WebhookSubscription subscription, Delivery delivery) {
        bySubscription.computeIfAbsent(subscription.id(), this::deliveriesOf).add(delivery);
    }

    private SubscriptionDeliveries deliveriesOf(String subscriptionId) {
        return new SubscriptionDeliveries(subscriptionId, subscriptions, attempts, executor, slots, () -> bySubscription.remove(subscriptionId));
    }

    /** Stops sending: what is out is abandoned, what waits is not sent. Unfinished deliveries were not committed. */
    @Override
    public void close() {
        executor.shutdownNow();
    }
}
