package dev.sopline.judgment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import dev.sopline.schemas.definition.FieldType;
import dev.sopline.schemas.definition.JudgmentSettings;
import dev.sopline.schemas.definition.OutputDeclaration;
import dev.sopline.schemas.definition.StepType;
import dev.sopline.schemas.event.StepReady;
import dev.sopline.schemas.event.StepResult;
import dev.sopline.testing.CapturedLog;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** One deadline for a whole decision, whatever the model's server does. */
class DecisionTimeoutTest {

    private static final StepReady STEP = new StepReady("default", "01JAAAAAAAAAAAAAAAAAAAAAAA", "support", "1.0", "route", "Route the ticket",
            StepType.JUDGMENT, null, 1, Map.of("ticket", "charged twice"),
            List.of(new OutputDeclaration("team", FieldType.ENUM, List.of("billing", "shipping"), null, null)),
            new JudgmentSettings(true, 0.8, "human", null), null, null, Instant.now());

    private final ChatCompletionsStub server = new ChatCompletionsStub();

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    @Timeout(30)
    void shouldEscalateWithTheReasonWhenTheServerTricklesItsAnswerPastTheDeadline() {
        server.trickle();
        JudgmentResolver resolver = new JudgmentResolver(server.agent(Map.of(AgentProviders.DECISION_TIMEOUT, "2s")), "judge-1", Clock.systemUTC());

        try (CapturedLog log = CapturedLog.of(TimeLimitedAgent.class); CapturedLog modelLog = CapturedLog.of(ChatModelAgent.class)) {
            long started = System.nanoTime();
            StepResult result = resolver.resolve(STEP);
            Duration took = Duration.ofNanos(System.nanoTime() - started);

            assertThat(took).isBetween(Duration.ofSeconds(2), Duration.ofSeconds(5));
            assertThat(result.outputs()).isNull();
            assertThat(result.error().code()).isEqualTo(JudgmentResolver.UNDECIDED);
            assertThat(result.error().message()).isEqualTo("The model did not answer within 2 s, so a person decides");
            assertThat(log.messagesAtLeast(Level.WARN)).singleElement().satisfies(line ->
                    assertThat(line).contains("openai/gpt-test", "within 2 s", "SOP_JUDGMENT_DECISION_TIMEOUT").doesNotContain("charged twice"));
            assertThat(modelLog.messagesAtLeast(Level.WARN)).as("the abandoned call, said once").isEmpty();
        }
    }

    @Test
    @Timeout(30)
    void shouldCountTheReaskInTheSameDeadline() {
        // The first answer is unusable, so the model is asked again; the second answer never ends.
        server.answer(request -> {
            server.trickle();
            return "not json";
        });
        JudgmentAgent agent = server.agent(Map.of(AgentProviders.DECISION_TIMEOUT, "2s"));

        long started = System.nanoTime();
        assertThatThrownBy(() -> agent.decide(JudgmentRequest.of(STEP))).isInstanceOf(UndecidableException.class)
                .hasMessageContaining("did not answer within 2 s");
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
    }

    @Test
    void shouldRefuseADecisionTimeoutThatIsNotADuration() {
        assertThatThrownBy(() -> server.agent(Map.of(AgentProviders.DECISION_TIMEOUT, "90"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Expected SOP_JUDGMENT_DECISION_TIMEOUT to be a duration such as 90s or 2m, but it is '90'");
    }
}
