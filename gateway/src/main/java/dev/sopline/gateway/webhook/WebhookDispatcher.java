package dev.sopline.gateway.webhook;

import dev.sopline.gateway.auth.SignatureVerifier;
import dev.sopline.gateway.config.SopProperties;
import dev.sopline.schemas.event.StateChangeEvents;
import dev.sopline.schemas.topic.Topics;
import io.cloudevents.CloudEvent;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Delivers {@code sop.events} to the workspaces' webhook subscriptions: the CloudEvent as the body, signed with
 * {@code X-SOP-Signature-256: sha256=<hex hmac>} and named by {@code X-SOP-Delivery}. It reads the topic in a
 * consumer group of its own, apart from the engine, so a slow receiver never holds the engine up, and gateway
 * replicas share the deliveries. A failed delivery is retried with exponential backoff (0.5 s doubling, 6 attempts);
 * offsets are committed after the batch's deliveries, so a gateway that stops mid-batch redelivers: at least once,
 * and receivers dedupe on {@code X-SOP-Delivery}.
 */
@Component
public class WebhookDispatcher implements SmartLifecycle {

    private static final Logger LOG = LoggerFactory.getLogger(WebhookDispatcher.class);
    static final String GROUP = "sop-webhook-delivery";
    private static final int ATTEMPTS = 6;
    private static final Duration FIRST_BACKOFF = Duration.ofMillis(500);

    private final SopProperties properties;
    private final WebhookRegistry registry;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final AtomicBoolean running = new AtomicBoolean();
    private Thread thread;

    public WebhookDispatcher(SopProperties properties, WebhookRegistry registry) {
        this.properties = properties;
        this.registry = registry;
    }

    @Override
    public void start() {
        running.set(true);
        thread = new Thread(this::run, "webhook-dispatcher");
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        Map<String, Object> config = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, properties.kafka().bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG, GROUP,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest",
                ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG, 600_000);
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(config, new StringDeserializer(), new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(Topics.EVENTS));
            while (running.get()) {
                ConsumerRecords<String, byte[]> records = consumer.poll(Duration.ofMillis(200));
                for (ConsumerRecord<String, byte[]> record : records) {
                    deliver(record.value());
                }
                if (!records.isEmpty()) {
                    consumer.commitSync();
                }
            }
        } catch (RuntimeException e) {
            if (running.get()) {
                LOG.error("Webhook deliveries stopped", e);
            }
        }
    }

    private void deliver(byte[] body) {
        if (registry.isEmpty()) {
            return;
        }
        CloudEvent event;
        try {
            event = StateChangeEvents.read(body);
        } catch (RuntimeException e) {
            LOG.warn("Skipping an unreadable event");
            return;
        }
        String workspace = StateChangeEvents.workspaceOf(event);
        for (WebhookSubscription subscription : registry.of(workspace)) {
            deliver(subscription, event.getId() + ":" + subscription.id(), body);
        }
    }

    private void deliver(WebhookSubscription subscription, String deliveryId, byte[] body) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(subscription.url()))
                .timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/cloudevents+json")
                .header("X-SOP-Signature-256", SignatureVerifier.sign(subscription.secret(), body))
                .header("X-SOP-Delivery", deliveryId)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .build();
        Duration backoff = FIRST_BACKOFF;
        for (int attempt = 1; attempt <= ATTEMPTS && running.get(); attempt++) {
            try {
                int status = http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
                if (status >= 200 && status < 300) {
                    return;
                }
                LOG.debug("Delivery {} to {} answered {} (attempt {})", deliveryId, subscription.id(), status, attempt);
            } catch (IOException e) {
                LOG.debug("Delivery {} to {} failed: {} (attempt {})", deliveryId, subscription.id(), e.getMessage(), attempt);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            sleep(backoff);
            backoff = backoff.multipliedBy(2);
        }
        LOG.warn("Gave up delivering {} to webhook {} after {} attempts", deliveryId, subscription.id(), ATTEMPTS);
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void stop() {
        running.set(false);
        try {
            if (thread != null) {
                thread.join(10_000);
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
