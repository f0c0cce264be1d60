package dev.sopline.gateway.engine;

import dev.sopline.engine.query.EngineReader;
import dev.sopline.engine.query.RemoteEngineReader;
import dev.sopline.engine.runtime.Engine;
import dev.sopline.engine.runtime.EngineSettings;
import dev.sopline.gateway.config.SopProperties;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Where the gateway reads engine state from. By default an engine replica runs in the gateway's JVM and queries
 * are answered from its stores (and routed to the other replicas, if any). With {@code SOP_ENGINE_QUERY_URL} set the
 * gateway runs no engine and reads through that engine replica's query endpoints. Started before the web server
 * accepts requests and stopped after it drains them.
 */
@Component
public class EngineAccess implements SmartLifecycle {

    private final SopProperties properties;
    private volatile Engine engine;
    private volatile EngineReader remote;

    public EngineAccess(SopProperties properties) {
        this.properties = properties;
    }

    @Override
    public void start() {
        String queryUrl = properties.engine() == null ? null : properties.engine().queryUrl();
        if (queryUrl != null && !queryUrl.isBlank()) {
            remote = new RemoteEngineReader(queryUrl);
            return;
        }
        EngineSettings settings = EngineSettings.fromEnvironment(System.getenv())
                .withBootstrapServers(properties.kafka().bootstrapServers())
                .withStateDir(properties.dataDir().resolve("engine"));
        engine = Engine.start(settings);
    }

    @Override
    public void stop() {
        Engine running = engine;
        if (running != null) {
            running.close();
            engine = null;
        }
        remote = null;
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

    /** Whether queries can be answered now: the embedded engine runs, or the remote one answers. */
    public boolean isReady() {
        if (remote != null) {
            try {
                remote.processes("default");
                return true;
            } catch (RuntimeException e) {
                return false;
            }
        }
        Engine running = engine;
        return running != null && running.isRunning();
    }

    public EngineReader queries() {
        if (remote != null) {
            return remote;
        }
        Engine running = engine;
        if (running == null) {
            throw new org.apache.kafka.streams.errors.InvalidStateStoreException("The engine is not running");
        }
        return running.reader();
    }
}
