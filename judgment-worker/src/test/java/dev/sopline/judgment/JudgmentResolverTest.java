package dev.sopline.judgment;

import static org.assertj.core.api.Assertions.assertThat;

import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.sopline.schemas.definition.FieldType;
import dev.sopline.schemas.definition.JudgmentSettings;
import dev.sopline.schemas.definition.OutputDeclaration;
import dev.sopline.schemas.definition.StepType;
import dev.sopline.schemas.event.StepReady;
import dev.sopline.schemas.event.StepResult;
import dev.sopline.schemas.instance.JudgmentDecision;
import dev.sopline.schemas.json.Json;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

class JudgmentResolverTest {

    private static final Schema STEP_RESULT = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12,
                    builder -> builder.schemaIdResolvers(resolvers -> resolvers.mapPrefix("https://sopline.dev/schemas/", "classpath:schemas/")))
            .getSchema(SchemaLocation.of("https://sopline.dev/schemas/step-result.schema.json"));

    private static final Instant NOW = Instant.parse("2026-03-02T08:00:00Z");
    private static final String HASH = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";

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
        StepResult result = resolver(answering(new AgentAnswer(Map.of("urgency", "high"), 0.9, "outage", "m", HASH))).resolve(step(true));

        assertThat(result.attempt()).isEqualTo(2);
        assertThat(result.outputs()).isEqualTo(Map.of("urgency", "high"));
        assertThat(result.error()).isNull();
        assertThat(result.decision().by()).isEqualTo("agent");
        assertThat(result.decision().confidence()).isEqualTo(0.9);
        assertThat(result.decision().rationale()).isEqualTo("outage");
        assertThat(result.decision().model()).isEqualTo("m");
        assertThat(result.decision().promptSha256()).isEqualTo(HASH);
        assertThat(result.reportedAt()).isEqualTo(NOW);
    }

    @Test
    void shouldReportAnErrorForEscalationWhenTheAgentCannotDecide() {
        JudgmentAgent undecided = new JudgmentAgent() {
            @Override
            public AgentAnswer decide(JudgmentRequest request) throws UndecidableException {
                throw new UndecidableException("no JSON", HASH);
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
        assertThat(result.decision().model()).isEqualTo("m");
        assertThat(result.decision().promptSha256()).isEqualTo(HASH);
    }

    @Test
    void shouldEscalateWithTheReasonWhenTheAgentsOutputsDoNotFitTheStep() {
        StepResult result = resolver(answering(new AgentAnswer(Map.of("urgency", "critical"), 0.95, "very bad", "m", HASH))).resolve(step(true));

        assertThat(result.outputs()).isNull();
        assertThat(result.error().code()).isEqualTo("agent_undecided");
        assertThat(result.error().message()).contains("outputs.urgency", "critical");
        assertThat(result.decision().confidence()).isEqualTo(0.95);
        assertThat(result.decision().promptSha256()).isEqualTo(HASH);
    }

    @Test
    void shouldEscalateWhenTheAgentLeavesADeclaredOutputOut() {
        StepResult result = resolver(answering(new AgentAnswer(Map.of(), 0.95, "", "m", HASH))).resolve(step(true));

        assertThat(result.error().message()).contains("outputs.urgency");
    }

    @Test
    void shouldReportTheDecisionAsThePublishedStepResultSchemaDescribesIt() {
        StepResult decided = resolver(answering(new AgentAnswer(Map.of("urgency", "high"), 0.9, "outage", "m", HASH))).resolve(step(true));
        ObjectNode json = Json.mapper().valueToTree(decided);

        assertThat(json.path("decision").path("prompt_sha256").asString()).isEqualTo(HASH);
        assertThat(STEP_RESULT.validate(json)).isEmpty();
        ((ObjectNode) json.path("decision")).put("prompt_sha256", "not a hash");
        assertThat(STEP_RESULT.validate(json)).isNotEmpty();
    }

    @Test
    void shouldCutTheRationaleToTheLengthTheEngineKeeps() {
        StepResult result = resolver(answering(new AgentAnswer(Map.of("urgency", "high"), 0.9, "because ".repeat(50_000), "m", HASH)))
                .resolve(step(true));

        assertThat(result.decision().rationale()).hasSize(JudgmentDecision.MAX_RATIONALE_CHARS + 1).startsWith("because because").endsWith("…");
        assertThat(result.outputs()).isEqualTo(Map.of("urgency", "high"));
    }

    @Test
    void shouldGiveAShortReasonWhenTheAgentAnswersWithThousandsOfUndeclaredOutputs() {
        Map<String, Object> outputs = new HashMap<>(Map.of("urgency", "high"));
        for (int i = 0; i < 5_000; i++) {
            outputs.put("extra_" + i, "x".repeat(100));
        }

        StepResult result = resolver(answering(new AgentAnswer(outputs, 0.9, "r", "m", HASH))).resolve(step(true));

        assertThat(result.error().code()).isEqualTo("agent_undecided");
        assertThat(result.error().message()).hasSizeLessThan(1_200).contains("outputs.extra_").containsPattern("and \\d+ more$");
    }

    @Test
    void shouldEscalateWhenTheAgentFailsUnexpectedly() {
        JudgmentAgent broken = new JudgmentAgent() {
            @Override
            public AgentAnswer decide(JudgmentRequest request) {
                throw new IllegalStateException("the model's runtime broke");
            }

            @Override
            public String model() {
                return "m";
            }
        };

        StepResult result = resolver(broken).resolve(step(true));

        assertThat(result.error().code()).isEqualTo("agent_undecided");
        assertThat(result.error().message()).isEqualTo("The agent failed: IllegalStateException");
    }

    @Test
    void shouldLeaveTheStepToPeopleWhenAgentsAreNotAllowed() {
        assertThat(resolver(answering(new AgentAnswer(Map.of(), 1, "", "m", HASH))).resolve(step(false))).isNull();
    }
}
