package dev.sopline.engine.api.query;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class EngineQueryKeyTest {

    private static final byte[] SECRET = "a secret of the engines".getBytes(StandardCharsets.UTF_8);

    @Test
    void shouldBeTheSameForEveryProcessOfOneSecretAndOtherForAnother() {
        EngineQueryKey key = EngineQueryKey.of(SECRET);

        assertThat(key.isShownBy(EngineQueryKey.of(SECRET.clone()).value())).isTrue();
        assertThat(key.isShownBy(EngineQueryKey.of("another secret of engines".getBytes(StandardCharsets.UTF_8)).value())).isFalse();
        assertThat(key.isShownBy(null)).isFalse();
        assertThat(key.isShownBy("")).isFalse();
        assertThat(key.value()).as("not the secret itself").doesNotContain("secret").hasSize(64);
        assertThat(key.toString()).doesNotContain(key.value());
    }
}
