package dev.sopline.gateway.webhook;

/** Makes one attempt at one delivery; {@link WebhookSender} makes it over HTTP. */
@FunctionalInterface
interface DeliveryAttempt {

    enum Outcome {
        /** The receiver answered 2xx. */
        DELIVERED,
        /** No answer, or not 2xx: worth another attempt. */
        FAILED,
        /** The destination is not allowed: no attempt will ever be made. */
        REFUSED
    }

    Outcome make(WebhookSubscription subscription, Delivery delivery, int attempt);
}
