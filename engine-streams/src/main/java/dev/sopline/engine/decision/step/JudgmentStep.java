package dev.sopline.engine.decision.step;

import dev.sopline.engine.decision.InstanceTooLarge;
import dev.sopline.engine.state.StepRun;
import dev.sopline.schemas.definition.StepDefinition;
import dev.sopline.schemas.definition.StepType;
import dev.sopline.schemas.definition.validation.OutputValidator;
import dev.sopline.schemas.event.StepResult;
import dev.sopline.schemas.instance.Assignee;
import dev.sopline.schemas.instance.JudgmentDecision;
import dev.sopline.schemas.validation.Violation;
import java.util.List;
import java.util.Map;

/**
 * An agent decides, unless the file says {@code allow_agent: false}; below the confidence threshold, or on an error
 * or an answer that does not fit the outputs, a person takes over. A person may decide at any time while the step is
 * active; a late agent result is then ignored.
 */
final class JudgmentStep implements StepBehaviour {

    @Override
    public StepType type() {
        return StepType.JUDGMENT;
    }

    @Override
    public Assignee assignee(StepDefinition declared) {
        return declared.judgment() != null && declared.judgment().allowAgent() ? Assignee.AGENT : Assignee.HUMAN;
    }

    @Override
    public void onSubmit(StepContext step, Map<String, Object> outputs) {
        step.complete(outputs, new JudgmentDecision(JudgmentDecision.HUMAN, null, null, null), null);
    }

    /** Only the agent's results count, and only while the agent has the step. */
    @Override
    public boolean acceptsResult(StepRun step) {
        return step.assignee() == Assignee.AGENT;
    }

    @Override
    public void onResult(StepContext step, StepResult result) {
        JudgmentDecision decision = result.decision() != null ? result.decision()
                : new JudgmentDecision(JudgmentDecision.AGENT, null, null, null);
        if (result.error() != null || result.outputs() == null) {
            String reason = result.error() != null ? result.error().message() : "the agent gave no outputs";
            step.escalate(decision.withRationale(reason), null);
            return;
        }
        List<Violation> violations = OutputValidator.validate(step.declared().outputs(), result.outputs());
        double confidence = decision.confidence() == null ? 0 : decision.confidence();
        if (!violations.isEmpty() || confidence < step.declared().judgment().confidenceThreshold()) {
            step.escalate(decision, result.outputs());
            return;
        }
        step.complete(result.outputs(), decision, null);
    }

    /** A person takes over, without the proposal that would not fit. */
    @Override
    public void onResultTooLarge(StepContext step, StepResult result, InstanceTooLarge tooLarge) {
        JudgmentDecision decision = result.decision();
        step.escalate(decision == null ? new JudgmentDecision(JudgmentDecision.AGENT, null, tooLarge.getMessage(), null)
                : decision.withRationale(tooLarge.getMessage()), null);
    }
}
