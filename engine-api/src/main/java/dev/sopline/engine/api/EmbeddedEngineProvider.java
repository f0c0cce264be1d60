package dev.sopline.engine.api;

import io.micrometer.core.instrument.MeterRegistry;
import java.nio.file.Path;
import java.util.Map;

/**
 * Starts the engine that is on the class path. The engine module names its implementation in
 * {@code META-INF/services/dev.sopline.engine.api.EmbeddedEngineProvider}; callers go through {@link EmbeddedEngines}.
 */
public interface EmbeddedEngineProvider {

    /**
     * @param environment the engine's settings ({@code SOP_ENGINE_*}, {@code SOP_RETENTION}, ...), as the process
     *     environment holds them
     * @param bootstrapServers the Kafka cluster, which the caller's own setting names
     * @param stateDir where the engine keeps its local stores
     * @param meters where the engine's meters go
     * @param listener told of each reply and instance change as the engine decides it, on its stream thread
     */
    EmbeddedEngine start(Map<String, String> environment, String bootstrapServers, Path stateDir, MeterRegistry meters,
                         DecisionListener listener);
}
