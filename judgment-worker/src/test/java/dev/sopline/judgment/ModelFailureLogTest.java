package dev.sopline.judgment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import dev.sopline.schemas.definition.FieldType;
import dev.sopline.schemas.definition.OutputDeclaration;
import dev.sopline.testing.CapturedLog;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What an operator reads when the model fails: the cause, once a minute, never the key or the case. */
class ModelFailureLogTest {

    private static final String CASE = "Card 4111 1111 1111 1111 was charged twice";
    private static final JudgmentRequest REQUEST = new JudgmentRequest("support", "Route the ticket", "Pick the team",
            Map.of("ticket", CASE), List.of(new OutputDeclaration("team", FieldType.ENUM, List.of("billing", "shipping"), null, null)));

    private final ChatCompletionsStub server = new ChatCompletionsStub();

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void shouldWarnWithTheCauseButNeitherTheKeyNorTheCaseWhenTheModelFails() {
        server.failEchoingTheRequest(500);
        JudgmentAgent agent = server.agent();

        try (CapturedLog log = CapturedLog.of(ChatModelAgent.class)) {
            assertThatThrownBy(() -> agent.decide(REQUEST)).isInstanceOf(UndecidableException.class);

            assertThat(log.messagesAtLeast(Level.WARN)).singleElement().satisfies(line -> assertThat(line)
                    .contains("openai/gpt-test", "process 'support'", "boom for Bearer")
                    .doesNotContain(ChatCompletionsStub.API_KEY, "4111", "Pick the team"));
        }
    }

    @Test
    void shouldWarnOnceAMinuteWhenTheModelFailsStepAfterStep() {
        server.fail(500);
        JudgmentAgent agent = server.agent();

        try (CapturedLog log = CapturedLog.of(ChatModelAgent.class)) {
            for (int i = 0; i < 3; i++) {
                assertThatThrownBy(() -> agent.decide(REQUEST)).isInstanceOf(UndecidableException.class);
            }

            assertThat(log.messagesAtLeast(Level.WARN)).singleElement().satisfies(line -> assertThat(line).contains("boom"));
        }
    }
}
