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
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Map;

/**
 * A worker runs the step and reports outputs or an error, over Kafka or HTTP. A failed attempt is retried by the
 * step's policy, unless the worker marked its error {@code retryable: false}; outputs that do not match the declarations count as a failed attempt, as the worker is the one to fix.
 */
final class AutomatedStep implements StepBehaviour {

    /** The error of an attempt whose worker stopped sending heartbeats. */
    static final String HEARTBEAT_TIMEOUT = "heartbeat_timeout";

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
        if (result.carriesHeartbeat()) {
            onHeartbeat(step);
            return;
        }
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

    /**
     * The worker is still at it: the deadline moves to one heartbeat timeout from now, never earlier than it was. A
     * step declared without heartbeats keeps its deadline, whatever its worker sends.
     */
    private static void onHeartbeat(StepContext step) {
        Optional<Duration> heartbeatTimeout = step.declared().heartbeatTimeoutDuration();
        Instant deadline = step.run().deadline();
        if (heartbeatTimeout.isEmpty() || deadline == null) {
            return;
        }
        Instant extended = step.now().plus(heartbeatTimeout.get());
        if (extended.isAfter(deadline)) {
            step.extendDeadline(extended);
        }
    }

    /**
     * A step that takes heartbeats and passed its deadline has a worker that stopped sending them (it died, or hangs):
     * the attempt fails and the retry policy hands the step out again, to a worker that is alive. Without heartbeats
     * the timeout is the step's time limit, and the step fails as any other.
     */
    @Override
    public void onTimeout(StepContext step) {
        if (step.declared().heartbeatTimeoutDuration().isEmpty()) {
            StepBehaviour.super.onTimeout(step);
            return;
        }
        step.failAttempt(StepError.of(HEARTBEAT_TIMEOUT, "Expected a heartbeat of step '%s' by %s, but none came"
                .formatted(step.run().id(), step.run().deadline())));
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
        if (error.allowsRetry()) {
            step.failAttempt(error);
        } else {
            step.fail(bounded(error));
        }
    }

    /** The same bound the decider puts on a retried attempt's error: a worker's text never fills the instance. */
    private static StepError bounded(StepError error) {
        return error.bounded();
    }

    private static String describe(List<Violation> violations) {
        return violations.stream().map(v -> v.field() + " " + v.code()).toList().toString();
    }
}
