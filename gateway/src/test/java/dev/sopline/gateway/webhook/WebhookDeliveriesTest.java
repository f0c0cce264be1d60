package dev.sopline.gateway.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Receivers that hang in one workspace hold at most its share of the senders; other workspaces' deliveries go on. */
class WebhookDeliveriesTest {

    @Test
    void shouldKeepDeliveringToOtherWorkspacesWhileManyReceiversOfOneHang() {
        Map<String, WebhookSubscription> subscriptions = new ConcurrentHashMap<>();
        for (int i = 0; i < 40; i++) {
            subscriptions.put("hang-" + i, subscription("hang-" + i, "flooding"));
        }
        subscriptions.put("good", subscription("good", "other"));
        CountDownLatch never = new CountDownLatch(1);
        AtomicInteger hanging = new AtomicInteger();
        AtomicInteger mostHanging = new AtomicInteger();
        AtomicInteger delivered = new AtomicInteger();
        DeliveryAttempt attempts = (subscription, delivery, attempt) -> {
            if (subscription.workspace().equals("flooding")) {
                mostHanging.accumulateAndGet(hanging.incrementAndGet(), Math::max);
                try {
                    never.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return DeliveryAttempt.Outcome.FAILED;
            }
            delivered.incrementAndGet();
            return DeliveryAttempt.Outcome.DELIVERED;
        };
        try (WebhookDeliveries deliveries = new WebhookDeliveries(id -> Optional.ofNullable(subscriptions.get(id)), attempts)) {
            for (int i = 0; i < 40; i++) {
                deliveries.add(subscriptions.get("hang-" + i), new Delivery("e-" + i, new byte[0], () -> { }));
            }
            await().atMost(Duration.ofSeconds(5)).until(() -> hanging.get() > 0);

            for (int i = 0; i < 20; i++) {
                deliveries.add(subscriptions.get("good"), new Delivery("g-" + i, new byte[0], () -> { }));
            }

            await().atMost(Duration.ofSeconds(10)).until(() -> delivered.get() == 20);
            assertThat(mostHanging).hasValueLessThanOrEqualTo(WebhookDeliveries.SENDERS_PER_WORKSPACE);
        } finally {
            never.countDown();
        }
    }

    private static WebhookSubscription subscription(String id, String workspace) {
        return new WebhookSubscription(id, workspace, "https://hooks.example.com/" + id, List.of("state_changed"),
                "a-receiver-secret-of-some-length", Instant.EPOCH);
    }
}
