package dev.sopline.engine.api;

import io.micrometer.core.instrument.MeterRegistry;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * Starts an engine replica in this JVM without compiling against the engine: the engine jar is found on the class
 * path through {@link ServiceLoader}, so a gateway that reads from remote replicas can run with that jar absent.
 */
public final class EmbeddedEngines {

    private EmbeddedEngines() {}

    /**
     * @throws IllegalStateException when no engine is on the class path
     * @see EmbeddedEngineProvider#start
     */
    public static EmbeddedEngine start(Map<String, String> environment, String bootstrapServers, Path stateDir, MeterRegistry meters,
                                       DecisionListener listener) {
        return provider(EmbeddedEngines.class.getClassLoader())
                .orElseThrow(() -> new IllegalStateException("Expected an engine to run in this process, but the engine module "
                        + "(engine-streams) is not on the class path; set SOP_ENGINE_QUERY_URLS to read from engine replicas instead"))
                .start(environment, bootstrapServers, stateDir, meters, listener);
    }

    static Optional<EmbeddedEngineProvider> provider(ClassLoader classLoader) {
        return ServiceLoader.load(EmbeddedEngineProvider.class, classLoader).findFirst();
    }
}
