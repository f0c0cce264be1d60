package dev.sopline.engine.decision.step;

import dev.sopline.engine.decision.InstanceTooLarge;
import dev.sopline.engine.state.StepRun;
import dev.sopline.schemas.command.ErrorCodes;
import dev.sopline.schemas.definition.StepDefinition;
import dev.sopline.schemas.definition.StepType;
import dev.sopline.schemas.definition.validation.OutputValidator;
import dev.sopline.schemas.event.StepResult;
import dev.sopline.schemas.instance.Assignee;
import dev.sopline.schemas.instance.StepError;
import dev.sopline.schemas.validation.Violation;
import java.util.List;
import java.util.Map;

/**
 * A worker runs the step and reports outputs or an error, over Kafka or HTTP. A failed attempt is retried by the
 * step's policy; outputs that do not match the declarations count as a failed attempt, as the worker is the one to fix.
 */
final class AutomatedStep implements StepBehaviour {

    @Override
    public StepType type() {
        return StepType.AUTOMATED;
    }

    @Override
    public Assignee assignee(StepDefinition declared) {
        return Assignee.WORKER;
    }

    @Override
    public boolean acceptsSubmittedErrors() {
        return true;
    }

    @Override
    public void onSubmittedError(StepContext step, StepError error) {
        step.failAttempt(error);
    }

    @Override
    public boolean acceptsResult(StepRun step) {
        return true;
    }

    @Override
    public void onResult(StepContext step, StepResult result) {
        if (result.error() != null) {
            step.failAttempt(result.error());
            return;
        }
        Map<String, Object> outputs = result.outputs() == null ? Map.of() : result.outputs();
        List<Violation> violations = OutputValidator.validate(step.declared().outputs(), outputs);
        if (!violations.isEmpty()) {
            step.failAttempt(StepError.of("invalid_outputs",
                    "Expected outputs that match step '%s', but %s".formatted(step.run().id(), describe(violations))));
            return;
        }
        step.complete(outputs, null, null);
    }

    /** The attempt fails with {@code payload_too_large} and is retried by its policy. */
    @Override
    public void onResultTooLarge(StepContext step, StepResult result, InstanceTooLarge tooLarge) {
        step.failAttempt(StepError.of(ErrorCodes.PAYLOAD_TOO_LARGE, tooLarge.getMessage()));
    }

    private static String describe(List<Violation> violations) {
        return violations.stream().map(v -> v.field() + " " + v.code()).toList().toString();
    }
}
