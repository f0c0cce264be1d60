package dev.sopline.gateway.webhook;

import dev.sopline.engine.api.topic.EngineTopics;
import dev.sopline.gateway.config.SopProperties;
import dev.sopline.gateway.store.CompactedTopicRegistry;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.springframework.stereotype.Component;

/** Every workspace's webhook subscriptions, from the compacted {@code sop.webhooks} topic every gateway reads. */
@Component
public class WebhookRegistry extends CompactedTopicRegistry<WebhookSubscription> implements Subscriptions {

    public WebhookRegistry(SopProperties properties) {
        super(properties, EngineTopics.WEBHOOKS, WebhookSubscription.class);
    }

    @Override
    public List<WebhookSubscription> of(String workspace) {
        return view.values().stream()
                .filter(subscription -> workspace.equals(subscription.workspace()))
                .sorted(Comparator.comparing(WebhookSubscription::id))
                .toList();
    }

    @Override
    public boolean isEmpty() {
        return view.values().isEmpty();
    }

    public Optional<WebhookSubscription> find(String workspace, String id) {
        return view.get(id).filter(subscription -> workspace.equals(subscription.workspace()));
    }

    @Override
    public Optional<WebhookSubscription> byId(String id) {
        return view.get(id);
    }

    public void save(WebhookSubscription subscription) {
        view.put(subscription.id(), subscription);
    }

    public void delete(String id) {
        view.put(id, null);
    }
}
