package dev.sopline.judgment.evaluation;

import dev.sopline.judgment.evaluation.Evaluation.Outcome;
import java.util.ArrayList;
import java.util.List;

/**
 * What the engine makes of the evaluation's results at one confidence threshold: an error or a confidence below the
 * threshold escalates the case to a person; anything else completes the step with the agent's outputs, rightly or
 * wrongly.
 *
 * @param agent the model evaluated
 * @param threshold the step's confidence threshold
 * @param cases how many cases were run
 * @param rightAutoDecisions cases completed by the agent with the labelled outputs
 * @param wrongAutoDecisions cases completed by the agent with other outputs, described
 * @param escalations cases handed to a person
 */
public record EvaluationReport(String agent, double threshold, int cases, int rightAutoDecisions, List<String> wrongAutoDecisions,
                               int escalations) {

    public static EvaluationReport of(String agent, List<Outcome> outcomes, double threshold) {
        int right = 0;
        int escalated = 0;
        List<String> wrong = new ArrayList<>();
        for (Outcome outcome : outcomes) {
            if (outcome.result().error() != null || outcome.result().decision().confidence() < threshold) {
                escalated++;
            } else if (outcome.result().outputs().equals(outcome.labelled().expected())) {
                right++;
            } else {
                wrong.add("%s %s -> %s at %.2f".formatted(outcome.labelled().request().process(), outcome.labelled().request().inputs(),
                        outcome.result().outputs(), outcome.result().decision().confidence()));
            }
        }
        return new EvaluationReport(agent, threshold, outcomes.size(), right, List.copyOf(wrong), escalated);
    }

    public int autoDecided() {
        return rightAutoDecisions + wrongAutoDecisions.size();
    }

    @Override
    public String toString() {
        return "%s at threshold %.2f: %d cases, auto-decided %d (%.0f%%), wrong auto-decisions %d, escalations %d%s".formatted(
                agent, threshold, cases, autoDecided(), 100.0 * autoDecided() / cases, wrongAutoDecisions.size(), escalations,
                wrongAutoDecisions.isEmpty() ? "" : " " + wrongAutoDecisions);
    }
}
