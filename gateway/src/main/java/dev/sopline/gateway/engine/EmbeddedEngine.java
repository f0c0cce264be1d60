package dev.sopline.gateway.engine;

import dev.sopline.engine.query.EngineQueries;
import dev.sopline.engine.runtime.Engine;
import dev.sopline.engine.runtime.EngineSettings;
import dev.sopline.gateway.config.SopProperties;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * The engine replica that runs in the gateway's JVM and answers its queries from local stores. Started before the
 * web server accepts requests and stopped after it drains them.
 */
@Component
public class EmbeddedEngine implements SmartLifecycle {

    private final SopProperties properties;
    private volatile Engine engine;

    public EmbeddedEngine(SopProperties properties) {
        this.properties = properties;
    }

    @Override
    public void start() {
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
    }

    @Override
    public boolean isRunning() {
        return engine != null;
    }

    /** Started early and stopped late, around the web server. */
    @Override
    public int getPhase() {
        return Integer.MIN_VALUE + 1000;
    }

    public boolean isReady() {
        Engine running = engine;
        return running != null && running.isRunning();
    }

    public EngineQueries queries() {
        Engine running = engine;
        if (running == null) {
            throw new IllegalStateException("The engine is not running");
        }
        return running.queries();
    }
}
