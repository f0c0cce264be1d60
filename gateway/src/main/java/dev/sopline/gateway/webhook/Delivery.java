package dev.sopline.gateway.webhook;

/**
 * One event to send to one subscription.
 *
 * @param id the {@code X-SOP-Delivery} header: the event's id and the subscription's, the same on every attempt so
 *           receivers can drop repeats
 * @param body the CloudEvent as read from {@code sop.events}
 * @param whenFinished called once, when the delivery succeeded or was given up; lets its offset be committed
 */
record Delivery(String id, byte[] body, Runnable whenFinished) {

    void finish() {
        whenFinished.run();
    }
}
