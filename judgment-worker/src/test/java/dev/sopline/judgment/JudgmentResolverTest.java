package dev.sopline.judgment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sopline.schemas.definition.FieldType;
import dev.sopline.schemas.definition.JudgmentSettings;
import dev.sopline.schemas.definition.OutputDeclaration;
import dev.sopline.schemas.definition.StepType;
import dev.sopline.schemas.event.StepReady;
import dev.sopline.schemas.event.StepResult;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JudgmentResolverTest {

    private static final Instant NOW = Instant.parse("2026-03-02T08:00:00Z");

    private static StepReady step(boolean allowAgent) {
        return new StepReady("default", "01JAAAAAAAAAAAAAAAAAAAAAAA", "triage", "1.0", "classify", "Classify", StepType.JUDGMENT, null, 2,
                Map.of("ticket", "x"), List.of(new OutputDeclaration("urgency", FieldType.ENUM, List.of("low", "high"), null, null)),
                new JudgmentSettings(allowAgent, 0.8, "human", null), null, null, NOW);
    }

    private static JudgmentResolver resolver(JudgmentAgent agent) {
        return new JudgmentResolver(agent, "judge-1", Clock.fixed(NOW, ZoneOffset.UTC));
    }

    private static JudgmentAgent answering(AgentAnswer answer) {
        return new JudgmentAgent() {
            @Override
            public AgentAnswer decide(JudgmentRequest request) {
                return answer;
            }

            @Override
            public String model() {
                return answer.model();
            }
        };
    }

    @Test
    void shouldReportOutputsWithTheDecisionWhenTheAgentDecides() {
        StepResult result = resolver(answering(new AgentAnswer(Map.of("urgency", "high"), 0.9, "outage", "m"))).resolve(step(true));

        assertThat(result.attempt()).isEqualTo(2);
        assertThat(result.outputs()).isEqualTo(Map.of("urgency", "high"));
        assertThat(result.error()).isNull();
        assertThat(result.decision().by()).isEqualTo("agent");
        assertThat(result.decision().confidence()).isEqualTo(0.9);
        assertThat(result.decision().rationale()).isEqualTo("outage");
        assertThat(result.reportedAt()).isEqualTo(NOW);
    }

    @Test
    void shouldReportAnErrorForEscalationWhenTheAgentCannotDecide() {
        JudgmentAgent undecided = new JudgmentAgent() {
            @Override
            public AgentAnswer decide(JudgmentRequest request) throws UndecidableException {
                throw new UndecidableException("no JSON");
            }

            @Override
            public String model() {
                return "m";
            }
        };

        StepResult result = resolver(undecided).resolve(step(true));

        assertThat(result.outputs()).isNull();
        assertThat(result.error().code()).isEqualTo("agent_undecided");
        assertThat(result.error().message()).isEqualTo("no JSON");
    }

    @Test
    void shouldLeaveTheStepToPeopleWhenAgentsAreNotAllowed() {
        assertThat(resolver(answering(new AgentAnswer(Map.of(), 1, "", "m"))).resolve(step(false))).isNull();
    }
}
