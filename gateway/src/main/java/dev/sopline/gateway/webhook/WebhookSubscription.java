package dev.sopline.gateway.webhook;

import java.time.Instant;
import java.util.List;

/**
 * Where a workspace wants its {@code state_changed} events delivered.
 *
 * @param id public identifier
 * @param workspace the workspace whose events are delivered
 * @param url the receiver, http or https
 * @param events event kinds; {@code state_changed} is the one there is
 * @param secret HMAC-SHA256 key deliveries are signed with; kept as given because signing needs it
 * @param createdAt when it was created
 */
public record WebhookSubscription(String id, String workspace, String url, List<String> events, String secret, Instant createdAt) {}
