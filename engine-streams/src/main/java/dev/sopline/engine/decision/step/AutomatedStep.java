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
 * step's policy, unless the worker marked its error {@code retryable: false}; outputs that do not match the declarations count as a failed attempt, as the worker is the one to fix.
 */
final class AutomatedStep implements StepBehaviour {

    private static final int MAX_MESSAGE_CHARS = 4_096;

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
        failAttemptOrStep(step, error);
    }

    @Override
    public boolean acceptsResult(StepRun step) {
        return true;
    }

    @Override
    public void onResult(StepContext step, StepResult result) {
        if (result.error() != null) {
            failAttemptOrStep(step, result.error());
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

    /**
     * A worker's error fails the attempt, and the step's policy retries it; an error the worker marked not retryable
     * (a business refusal such as a declined card) fails the step at once, since another attempt would be refused too.
     */
    private static void failAttemptOrStep(StepContext step, StepError error) {
        if (error.isRetryable()) {
            step.failAttempt(error);
        } else {
            step.fail(bounded(error));
        }
    }

    /** The same bound the decider puts on a retried attempt's message: a worker's text never fills the instance. */
    private static StepError bounded(StepError error) {
        if (error.message() == null || error.message().length() <= MAX_MESSAGE_CHARS) {
            return error;
        }
        return new StepError(error.stepId(), error.code(), error.message().substring(0, MAX_MESSAGE_CHARS) + "…", error.retryable());
    }

    private static String describe(List<Violation> violations) {
        return violations.stream().map(v -> v.field() + " " + v.code()).toList().toString();
    }
}
