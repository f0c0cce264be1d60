package dev.sopline.judgment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sopline.judgment.evaluation.Evaluation;
import dev.sopline.judgment.evaluation.Evaluation.Outcome;
import dev.sopline.judgment.evaluation.EvaluationReport;
import dev.sopline.judgment.evaluation.EvaluationSet;
import dev.sopline.schemas.definition.JudgmentSettings;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The offline agent on the labelled evaluation set (README, "Judgments"): it may escalate as much as it must, but it
 * never completes a step wrongly on its own at the default threshold.
 */
class LocalEvaluationTest {

    private static List<Outcome> outcomes;

    @BeforeAll
    static void runTheEvaluation() {
        outcomes = Evaluation.run(SharedLocalAgent.get(), EvaluationSet.load());
    }

    private static List<Outcome> of(String process) {
        return outcomes.stream().filter(outcome -> outcome.labelled().request().process().equals(process)).toList();
    }

    @Test
    void shouldNeverAutoDecideWronglyAtTheDefaultThreshold() {
        EvaluationReport report = EvaluationReport.of(LocalEmbeddingAgent.MODEL, outcomes, JudgmentSettings.DEFAULT_CONFIDENCE_THRESHOLD);
        System.out.println("Evaluation: " + report);

        assertThat(report.cases()).isGreaterThanOrEqualTo(60);
        assertThat(report.wrongAutoDecisions()).isEmpty();
        assertThat(report.autoDecided()).as("cases decided without a person").isGreaterThanOrEqualTo(10);
    }

    @Test
    void shouldNeverAutoDecideWronglyAtTheExamplesThreshold() {
        EvaluationReport report = EvaluationReport.of(LocalEmbeddingAgent.MODEL, outcomes, 0.7);
        System.out.println("Evaluation: " + report);

        assertThat(report.wrongAutoDecisions()).isEmpty();
    }

    @Test
    void shouldProposeFromTheCaseRatherThanTheSameAnswerForEveryCase() {
        Set<Map<String, Object>> proposed = of("support-triage").stream().map(outcome -> outcome.result().outputs()).collect(Collectors.toSet());

        assertThat(proposed).containsExactlyInAnyOrder(Map.of("team", "billing"), Map.of("team", "shipping"),
                Map.of("team", "technical"), Map.of("team", "account"));
    }

    @Test
    void shouldEscalateWithItsProposalEveryCaseThatTurnsOnNumbersOrFlags() {
        List<Outcome> numeric = outcomes.stream().filter(outcome -> !outcome.labelled().request().process().equals("support-triage")).toList();

        assertThat(numeric).isNotEmpty().allSatisfy(outcome -> {
            assertThat(outcome.result().decision().confidence()).isZero();
            assertThat(outcome.result().outputs()).isNotEmpty();
            assertThat(outcome.result().decision().rationale()).contains("numbers or flags");
        });
    }

    @Test
    void shouldRecordWhatTheModelReadAsAHash() {
        assertThat(outcomes).allSatisfy(outcome -> assertThat(outcome.result().decision().promptSha256()).matches("[0-9a-f]{64}"));
        assertThat(outcomes.stream().map(outcome -> outcome.result().decision().promptSha256()).distinct()).hasSize(outcomes.size());
    }
}
