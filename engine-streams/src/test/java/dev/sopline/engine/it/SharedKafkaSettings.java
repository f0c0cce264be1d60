package dev.sopline.engine.it;

import dev.sopline.engine.runtime.EngineSettings;
import dev.sopline.testing.SharedKafka;
import java.nio.file.Path;
import java.util.Map;

/** The engine's settings from the given environment, on the test JVM's shared broker, with the given state directory. */
final class SharedKafkaSettings {

    private SharedKafkaSettings() {}

    static EngineSettings of(Path stateDir, Map<String, String> environment) {
        return EngineSettings.fromEnvironment(environment)
                .withBootstrapServers(SharedKafka.bootstrapServers())
                .withStateDir(stateDir);
    }
}
