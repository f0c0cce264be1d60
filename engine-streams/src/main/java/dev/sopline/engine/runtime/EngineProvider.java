package dev.sopline.engine.runtime;

import dev.sopline.engine.api.EmbeddedEngine;
import dev.sopline.engine.api.DecisionListener;
import dev.sopline.engine.api.EmbeddedEngineProvider;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.file.Path;
import java.util.Map;

/**
 * How a process that does not compile against the engine (the gateway) starts one in its JVM: named in
 * {@code META-INF/services}, found by {@link dev.sopline.engine.api.EmbeddedEngines}.
 */
public final class EngineProvider implements EmbeddedEngineProvider {

    @Override
    public EmbeddedEngine start(Map<String, String> environment, String bootstrapServers, Path stateDir, MeterRegistry meters,
                                DecisionListener listener) {
        EngineSettings settings = EngineSettings.forOneReplica(environment)
                .withBootstrapServers(bootstrapServers)
                .withStateDir(stateDir);
        return Engine.start(settings, meters, listener);
    }
}
