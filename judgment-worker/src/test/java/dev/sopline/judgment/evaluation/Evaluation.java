package dev.sopline.judgment.evaluation;

import dev.sopline.judgment.JudgmentAgent;
import dev.sopline.judgment.JudgmentRequest;
import dev.sopline.judgment.JudgmentResolver;
import dev.sopline.judgment.evaluation.EvaluationSet.LabelledCase;
import dev.sopline.schemas.definition.JudgmentSettings;
import dev.sopline.schemas.definition.StepType;
import dev.sopline.schemas.event.StepReady;
import dev.sopline.schemas.event.StepResult;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

/**
 * Runs the evaluation set through the judgment worker's resolver, so each case is reported as the worker would report
 * it. The results do not depend on the threshold, which only the engine applies: one run serves every threshold.
 */
public final class Evaluation {

    private static final Instant NOW = Instant.parse("2026-03-02T08:00:00Z");

    /** A case and what the worker reported for it. */
    public record Outcome(LabelledCase labelled, StepResult result) {}

    private Evaluation() {}

    public static List<Outcome> run(JudgmentAgent agent, List<LabelledCase> cases) {
        JudgmentResolver resolver = new JudgmentResolver(agent, "evaluation", Clock.fixed(NOW, ZoneOffset.UTC));
        return cases.stream().map(labelled -> new Outcome(labelled, resolver.resolve(step(labelled.request())))).toList();
    }

    /** The step-ready event the engine would publish for the case. */
    private static StepReady step(JudgmentRequest request) {
        return new StepReady("default", "01JAAAAAAAAAAAAAAAAAAAAAAA", request.process(), "1.0", "decide", request.stepName(),
                StepType.JUDGMENT, null, 1, request.inputs(), request.outputs(),
                new JudgmentSettings(true, JudgmentSettings.DEFAULT_CONFIDENCE_THRESHOLD, JudgmentSettings.HUMAN, request.instructions()),
                null, null, NOW);
    }
}
