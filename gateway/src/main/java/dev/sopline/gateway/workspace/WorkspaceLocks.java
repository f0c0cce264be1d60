package dev.sopline.gateway.workspace;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.springframework.stereotype.Component;

/**
 * One lock per workspace, for a count and the write it allows to happen as one step on this replica: without it, a
 * burst of requests all pass a limit the first of them reaches. Replicas do not share it, so each may let one more
 * through at the same moment. One entry per workspace, which the platform administrator alone creates.
 */
@Component
public class WorkspaceLocks {

    private final Map<String, Object> locks = new ConcurrentHashMap<>();

    public <T> T exclusively(String workspace, Supplier<T> work) {
        synchronized (locks.computeIfAbsent(workspace, any -> new Object())) {
            return work.get();
        }
    }
}
