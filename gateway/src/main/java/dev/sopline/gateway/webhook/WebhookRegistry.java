package dev.sopline.gateway.webhook;

import dev.sopline.engine.topology.EngineTopics;
import dev.sopline.gateway.config.SopProperties;
import dev.sopline.gateway.store.CompactedTopicView;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/** Every workspace's webhook subscriptions, from the compacted {@code sop.webhooks} topic every gateway reads. */
@Component
public class WebhookRegistry implements SmartLifecycle {

    private final SopProperties properties;
    private final CompactedTopicView<WebhookSubscription> subscriptions =
            new CompactedTopicView<>(EngineTopics.WEBHOOKS, WebhookSubscription.class, (previous, current) -> { });
    private volatile boolean running;

    public WebhookRegistry(SopProperties properties) {
        this.properties = properties;
    }

    public List<WebhookSubscription> of(String workspace) {
        return subscriptions.values().stream()
                .filter(subscription -> subscription.workspace().equals(workspace))
                .sorted(Comparator.comparing(WebhookSubscription::id))
                .toList();
    }

    public Optional<WebhookSubscription> find(String workspace, String id) {
        return subscriptions.get(id).filter(subscription -> subscription.workspace().equals(workspace));
    }

    public void save(WebhookSubscription subscription) {
        subscriptions.put(subscription.id(), subscription);
    }

    public void delete(String id) {
        subscriptions.put(id, null);
    }

    @Override
    public void start() {
        subscriptions.start(properties.kafka().bootstrapServers());
        running = true;
    }

    @Override
    public void stop() {
        subscriptions.stop();
        running = false;
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return Integer.MIN_VALUE + 2000;
    }
}
