package dev.sopline.judgment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sopline.judgment.evaluation.Evaluation;
import dev.sopline.judgment.evaluation.Evaluation.Outcome;
import dev.sopline.judgment.evaluation.EvaluationReport;
import dev.sopline.judgment.evaluation.EvaluationSet;
import dev.sopline.judgment.evaluation.EvaluationSet.LabelledCase;
import dev.sopline.schemas.definition.JudgmentSettings;
import dev.sopline.schemas.json.Json;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The LLM path on the evaluation set, against an OpenAI-compatible server that answers from the labels the way real
 * models misbehave: some first answers are prose or use a value the step does not allow (asked again, then right),
 * some cases stay unusable after the re-ask, some answers are unsure. It measures the worker's handling (parsing,
 * re-ask, validation, escalation), not a model's judgment.
 */
class ChatModelEvaluationTest {

    private static final List<LabelledCase> CASES = EvaluationSet.load();
    private static final ChatCompletionsStub SERVER = new ChatCompletionsStub();
    private static List<Outcome> outcomes;

    /** How the simulated model behaves on the case at this position of the set. */
    private enum Behaviour {
        RIGHT, PROSE_THEN_RIGHT, NOT_ALLOWED_THEN_RIGHT, UNUSABLE_TWICE, UNSURE;

        static Behaviour of(int index) {
            if (index % 9 == 4) {
                return UNUSABLE_TWICE;
            }
            if (index % 6 == 5) {
                return UNSURE;
            }
            return switch (index % 5) {
                case 1 -> PROSE_THEN_RIGHT;
                case 2 -> NOT_ALLOWED_THEN_RIGHT;
                default -> RIGHT;
            };
        }
    }

    @BeforeAll
    static void runTheEvaluation() {
        SERVER.answer(ChatModelEvaluationTest::answerFromTheLabels);
        outcomes = Evaluation.run(SERVER.agent(), CASES);
    }

    @AfterAll
    static void stop() {
        SERVER.close();
    }

    private static String answerFromTheLabels(JsonNode request) {
        List<String> users = ChatCompletionsStub.messages(request, "user");
        String data = users.get(0).substring("<case-data>\n".length(), users.get(0).length() - "\n</case-data>".length());
        JsonNode inputs = Json.mapper().readTree(data);
        int index = 0;
        while (!Json.mapper().valueToTree(CASES.get(index).request().inputs()).equals(inputs)) {
            index++;
        }
        boolean reasked = users.size() > 1;
        Map<String, Object> expected = CASES.get(index).expected();
        return switch (Behaviour.of(index)) {
            case RIGHT -> answer(expected, 0.93);
            case UNSURE -> answer(expected, 0.45);
            case PROSE_THEN_RIGHT -> reasked ? "```json\n" + answer(expected, 0.9) + "\n```" : "It looks fine to me.";
            case NOT_ALLOWED_THEN_RIGHT -> reasked ? answer(expected, 0.9) : answer(Map.of(expected.keySet().iterator().next(), "maybe"), 0.9);
            case UNUSABLE_TWICE -> "{\"outputs\": {}, \"confidence\": 0.99, \"rationale\": \"Certainly.\"}";
        };
    }

    private static String answer(Map<String, Object> outputs, double confidence) {
        return Json.mapper().writeValueAsString(Map.of("outputs", outputs, "confidence", confidence, "rationale", "From the policy."));
    }

    private static long casesBehaving(Behaviour... behaviours) {
        return java.util.stream.IntStream.range(0, CASES.size()).filter(index -> List.of(behaviours).contains(Behaviour.of(index))).count();
    }

    @Test
    void shouldDecideWhatTheModelAnswersUsablyAndEscalateTheRest() {
        EvaluationReport report = EvaluationReport.of("openai/gpt-test", outcomes, JudgmentSettings.DEFAULT_CONFIDENCE_THRESHOLD);
        System.out.println("Evaluation: " + report);

        assertThat(report.wrongAutoDecisions()).isEmpty();
        assertThat(report.autoDecided()).isEqualTo(casesBehaving(Behaviour.RIGHT, Behaviour.PROSE_THEN_RIGHT, Behaviour.NOT_ALLOWED_THEN_RIGHT));
        assertThat(report.escalations()).isEqualTo(casesBehaving(Behaviour.UNUSABLE_TWICE, Behaviour.UNSURE));
    }

    @Test
    void shouldAskAgainOnlyAfterAnUnusableAnswer() {
        long reasks = SERVER.requests().stream().filter(request -> ChatCompletionsStub.messages(request, "user").size() > 1).count();

        assertThat(reasks).isEqualTo(casesBehaving(Behaviour.PROSE_THEN_RIGHT, Behaviour.NOT_ALLOWED_THEN_RIGHT, Behaviour.UNUSABLE_TWICE));
    }

    @Test
    void shouldEscalateAnUnusableAnswerWithTheReasonAndKeepAnUnsureOneAsTheProposal() {
        assertThat(outcomes).allSatisfy(outcome -> {
            Behaviour behaviour = Behaviour.of(CASES.indexOf(outcome.labelled()));
            if (behaviour == Behaviour.UNUSABLE_TWICE) {
                assertThat(outcome.result().outputs()).isNull();
                assertThat(outcome.result().error().message()).contains("also when asked again");
            } else if (behaviour == Behaviour.UNSURE) {
                assertThat(outcome.result().outputs()).isEqualTo(outcome.labelled().expected());
                assertThat(outcome.result().decision().confidence()).isEqualTo(0.45);
            }
            assertThat(outcome.result().decision().model()).isEqualTo("openai/gpt-test");
            assertThat(outcome.result().decision().promptSha256()).matches("[0-9a-f]{64}");
        });
    }

    @Test
    void shouldAskForStrictStructuredOutputEveryTime() {
        assertThat(SERVER.requests()).allSatisfy(request -> {
            assertThat(request.path("response_format").path("type").asString()).isEqualTo("json_schema");
            assertThat(request.path("response_format").path("json_schema").path("strict").asBoolean()).isTrue();
        });
    }
}
