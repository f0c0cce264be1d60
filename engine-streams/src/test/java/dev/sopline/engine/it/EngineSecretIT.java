package dev.sopline.engine.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sopline.engine.api.secret.EngineSecret;
import dev.sopline.engine.runtime.EngineSettings;
import dev.sopline.engine.api.topic.EngineTopics;
import dev.sopline.testing.SharedKafka;
import java.nio.file.Path;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;

/** Every replica, and every restart, derives callback ids under the same secret. */
class EngineSecretIT {

    private static EngineSettings settings() {
        try (Admin admin = Admin.create(Map.<String, Object>of("bootstrap.servers", SharedKafka.bootstrapServers()))) {
            EngineTopics.ensure(admin, 6, 6, (short) 1);
        }
        return EngineSettings.fromEnvironment(Map.of()).withBootstrapServers(SharedKafka.bootstrapServers()).withStateDir(Path.of("unused"));
    }

    /** As an engine replica resolves it. */
    private static byte[] resolve(EngineSettings settings) {
        return EngineSecret.resolve(settings.engineSecret(), settings.bootstrapServers());
    }

    @Test
    void shouldGenerateTheSecretOnceAndReadTheSameOneEverywhereAfter() {
        byte[] first = resolve(settings());
        byte[] again = resolve(settings());

        assertThat(first).hasSize(32).isEqualTo(again);
    }

    @Test
    void shouldUseTheConfiguredSecretWhenSetAndNeverShowIt() {
        EngineSettings configured = settings().withEngineSecret("a configured secret of some length");

        assertThat(resolve(configured)).hasSize(32).isEqualTo(resolve(configured))
                .isNotEqualTo(resolve(settings()));
        assertThat(configured.toString()).doesNotContain("a configured secret");
        assertThatThrownBy(() -> resolve(settings().withEngineSecret("short"))).isInstanceOf(IllegalStateException.class);
    }
}
