package dev.sopline.engine.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code SOP_RETENTION}: the short form of process files or ISO-8601, 30 days when unset. */
class RetentionSettingTest {

    @Test
    void shouldKeepFinishedInstancesThirtyDaysWhenUnset() {
        assertThat(EngineSettings.fromEnvironment(Map.of()).retention()).isEqualTo(Duration.ofDays(30));
    }

    @Test
    void shouldReadTheShortFormAndIso8601() {
        assertThat(EngineSettings.fromEnvironment(Map.of("SOP_RETENTION", "7d")).retention()).isEqualTo(Duration.ofDays(7));
        assertThat(EngineSettings.fromEnvironment(Map.of("SOP_RETENTION", "90m")).retention()).isEqualTo(Duration.ofMinutes(90));
        assertThat(EngineSettings.fromEnvironment(Map.of("SOP_RETENTION", "PT12H")).retention()).isEqualTo(Duration.ofHours(12));
    }

    @Test
    void shouldRefuseToStartWithARetentionItCannotRead() {
        for (String text : new String[] {"soon", "0d", "-P1D", "PT0S"}) {
            assertThatThrownBy(() -> EngineSettings.fromEnvironment(Map.of("SOP_RETENTION", text)))
                    .as(text).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("SOP_RETENTION");
        }
    }
}
