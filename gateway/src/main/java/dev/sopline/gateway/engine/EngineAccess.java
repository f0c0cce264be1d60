package dev.sopline.gateway.engine;

import dev.sopline.engine.api.query.StateUnavailableException;
import dev.sopline.engine.api.EmbeddedEngine;
import dev.sopline.engine.api.EmbeddedEngines;
import dev.sopline.engine.api.query.EngineReader;
import dev.sopline.engine.api.query.EngineQueryKey;
import dev.sopline.engine.api.secret.EngineSecret;
import dev.sopline.engine.api.query.ReplicaSetEngineReader;
import dev.sopline.gateway.config.SopProperties;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Where the gateway reads engine state from. By default an engine replica runs in the gateway's JVM and queries
 * are answered from its stores (and routed to the other replicas, if any). With {@code SOP_ENGINE_QUERY_URLS} (or
 * {@code SOP_ENGINE_QUERY_URL}) set the gateway runs no engine and reads through the engine replicas' query
 * endpoints, any of which can answer; the engine's jar need not then be on the class path. Started before the web
 * server accepts requests and stopped after it drains them.
 */
@Component
public class EngineAccess implements SmartLifecycle {

    private final SopProperties properties;
    private final MeterRegistry meters;
    private final EngineListeners listeners;
    private final LocalDecisions localDecisions;
    private volatile EmbeddedEngine engine;
    private volatile ReplicaSetEngineReader remote;

    /**
     * @param meters the gateway's registry, which its Prometheus endpoint reads: the engine's meters go there rather than
     *     to Micrometer's global registry, shared by every engine of the JVM
     * @param listeners the parts of the gateway an embedded engine tells of its replies and instance changes as it
     *     decides them, so that requests its own decisions answer need no round trip through the broker
     * @param localDecisions told of the embedded engine, for the readers that need not fetch while it decides everything
     */
    public EngineAccess(SopProperties properties, MeterRegistry meters, EngineListeners listeners, LocalDecisions localDecisions) {
        this.properties = properties;
        this.meters = meters;
        this.listeners = listeners;
        this.localDecisions = localDecisions;
    }

    @Override
    public void start() {
        if (!properties.runsEngineHere()) {
            remote = new ReplicaSetEngineReader(properties.engine().replicaUrls(),
                    new EnginesKey<>(() -> EngineSecret.resolve(properties.engine().secret(), properties.kafka().bootstrapServers()), EngineQueryKey::of,
                            Clock.systemUTC()));
            return;
        }
        engine = EmbeddedEngines.start(System.getenv(), properties.kafka().bootstrapServers(), properties.dataDir().resolve("engine"), meters,
                listeners.all());
        localDecisions.engineStarted(engine);
    }

    @Override
    public void stop() {
        EmbeddedEngine running = engine;
        if (running != null) {
            localDecisions.engineStopped();
            running.close();
            engine = null;
        }
        ReplicaSetEngineReader replicas = remote;
        if (replicas != null) {
            replicas.close();
            remote = null;
        }
    }

    @Override
    public boolean isRunning() {
        return engine != null || remote != null;
    }

    /** Started early and stopped late, around the web server. */
    @Override
    public int getPhase() {
        return Integer.MIN_VALUE + 1000;
    }

    /**
     * Whether queries can be answered now: one of the engine replicas answers, or the embedded engine has restored
     * its stores (never a read from a store that is still being restored, which could answer "absent" wrongly).
     */
    public boolean isReady() {
        EmbeddedEngine running = engine;
        if (running != null && !running.isHealthy()) {
            // Stream threads keep dying or the result relay is down: reads may answer, but nothing moves.
            return false;
        }
        try {
            queries().processes("default");
            return true;
        } catch (RuntimeException e) {
            return false;
        }
    }

    public EngineReader queries() {
        ReplicaSetEngineReader replicas = remote;
        if (replicas != null) {
            return replicas;
        }
        EmbeddedEngine running = engine;
        if (running == null || !running.canServe()) {
            throw new StateUnavailableException("The engine is not running or its stores are not restored yet");
        }
        return running.reader();
    }
}
