package dev.sopline.gateway.engine;

import dev.sopline.engine.api.DecisionListener;
import java.util.List;
import org.springframework.stereotype.Component;

/**
 * The parts of the gateway an engine in its JVM tells of its replies and instance changes as it decides them (the
 * command bus, the waiting reads). A bean between them and {@link EngineAccess} rather than a dependency of it: Spring
 * starts a lifecycle bean's dependencies before the bean, which would start their readers before the engine has
 * created the topics they read, and stop them after it.
 */
@Component
public class EngineListeners {

    private final DecisionListener all;

    public EngineListeners(List<DecisionListener> listeners) {
        this.all = DecisionListener.all(listeners);
    }

    /** Tells each of them in turn. */
    public DecisionListener all() {
        return all;
    }
}
