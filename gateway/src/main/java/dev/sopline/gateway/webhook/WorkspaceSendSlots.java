package dev.sopline.gateway.webhook;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * How many of the shared senders one workspace's deliveries may hold at once. An attempt holds a sender until its
 * receiver answers or {@link WebhookSender#ATTEMPT_TIMEOUT} passes; without a share, one workspace with a few dozen
 * subscriptions to receivers that hang held every sender, and every other workspace's deliveries waited behind them.
 */
final class WorkspaceSendSlots {

    private final int perWorkspace;
    private final Map<String, AtomicInteger> taken = new ConcurrentHashMap<>();

    WorkspaceSendSlots(int perWorkspace) {
        this.perWorkspace = perWorkspace;
    }

    /** Takes a slot of the workspace, or returns false when its share is in use. */
    boolean tryTake(String workspace) {
        AtomicInteger count = taken.computeIfAbsent(workspace, ignored -> new AtomicInteger());
        while (true) {
            int now = count.get();
            if (now >= perWorkspace) {
                return false;
            }
            if (count.compareAndSet(now, now + 1)) {
                return true;
            }
        }
    }

    void give(String workspace) {
        taken.get(workspace).decrementAndGet();
    }
}
