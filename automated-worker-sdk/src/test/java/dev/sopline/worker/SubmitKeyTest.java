package dev.sopline.worker;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The Idempotency-Key of a submit: one per attempt and body, always one the gateway accepts. */
class SubmitKeyTest {

    private static final byte[] OUTPUTS = "{\"outputs\":{\"receipt\":\"r-1\"}}".getBytes(StandardCharsets.UTF_8);

    @Test
    void shouldNameTheAttemptAndTellBodiesApart() {
        String key = SubmitKey.of("01JAAAAAAAAAAAAAAAAAAAAAAA", "pay", 2, OUTPUTS);

        assertThat(key).matches("01JAAAAAAAAAAAAAAAAAAAAAAA/pay/2/[0-9a-f]{16}");
        assertThat(SubmitKey.of("01JAAAAAAAAAAAAAAAAAAAAAAA", "pay", 2, OUTPUTS)).isEqualTo(key);
        assertThat(SubmitKey.of("01JAAAAAAAAAAAAAAAAAAAAAAA", "pay", 3, OUTPUTS)).isNotEqualTo(key);
        assertThat(SubmitKey.of("01JAAAAAAAAAAAAAAAAAAAAAAA", "pay", 2, "{\"error\":{}}".getBytes(StandardCharsets.UTF_8))).isNotEqualTo(key);
    }

    @Test
    void shouldStayWithinWhatTheGatewayAcceptsWhateverTheStepId() {
        assertThat(SubmitKey.of("01JAAAAAAAAAAAAAAAAAAAAAAA", "prüfung mit leerzeichen", 1, OUTPUTS)).matches("[\\x21-\\x7E]{1,255}");
        assertThat(SubmitKey.of("01JAAAAAAAAAAAAAAAAAAAAAAA", "s".repeat(300), 1, OUTPUTS)).matches("[\\x21-\\x7E]{1,255}");
    }
}
