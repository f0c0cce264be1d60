package dev.sopline.gateway.webhook;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * How many of a shared pool's sender threads one workspace may hold at once. A send to a peer that does not read or
 * answer holds its thread until a timeout: a webhook attempt until its receiver answers or
 * {@link WebhookSender#ATTEMPT_TIMEOUT} passes, an event stream's write until the servlet container gives up on it.
 * Without a share, one workspace with a few dozen such peers held every sender, and every other workspace's deliveries
 * and streams waited behind them.
 */
public final class WorkspaceSendSlots {

    private final int perWorkspace;
    private final Map<String, AtomicInteger> taken = new ConcurrentHashMap<>();

    public WorkspaceSendSlots(int perWorkspace) {
        this.perWorkspace = perWorkspace;
    }

    /** Takes a slot of the workspace, or returns false when its share is in use. */
    public boolean tryTake(String workspace) {
        AtomicInteger count = taken.computeIfAbsent(String.valueOf(workspace), ignored -> new AtomicInteger());
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

    public void give(String workspace) {
        taken.get(String.valueOf(workspace)).decrementAndGet();
    }
}
