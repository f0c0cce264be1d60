package dev.sopline.gateway.webhook;

import java.util.List;
import java.util.Optional;

/** The subscriptions the dispatcher delivers to, as they are now; {@link WebhookRegistry} holds them. */
interface Subscriptions {

    /** True while no workspace has a subscription: events then need not even be read. */
    boolean isEmpty();

    /** A workspace's subscriptions. */
    List<WebhookSubscription> of(String workspace);

    /** The subscription as it is now, whichever workspace it is in; empty once deleted. */
    Optional<WebhookSubscription> byId(String id);
}
