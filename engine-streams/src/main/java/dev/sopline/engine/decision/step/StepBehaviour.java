package dev.sopline.engine.decision.step;

import dev.sopline.engine.decision.InstanceDecider;
import dev.sopline.engine.decision.InstanceTooLarge;
import dev.sopline.engine.state.StepRun;
import dev.sopline.schemas.definition.StepDefinition;
import dev.sopline.schemas.definition.StepType;
import dev.sopline.schemas.event.StepResult;
import dev.sopline.schemas.instance.Assignee;
import dev.sopline.schemas.instance.StepError;
import java.time.Instant;
import java.util.Map;

/**
 * What one step type does at each point of a step's life: who resolves it once active, what a submit, a worker's
 * result, a timeout and a cancel do to it. The command handlers check what every step shares (the instance exists,
 * the step is active, the outputs match their declarations) and then hand over to the step's type; the control flow
 * around the step (what starts next, when the instance waits) is the decider's.
 *
 * <p>A new step type is one implementation plus its line in {@link StepBehaviours#standard()}; the registry refuses
 * to start without a behaviour for every {@link StepType}.
 */
public interface StepBehaviour {

    StepType type();

    /** Who is expected to resolve a step of this type when it becomes active. */
    Assignee assignee(StepDefinition declared);

    /** Whether an active step of this type is resolved through a one-shot callback URL. */
    default boolean issuesCallback() {
        return false;
    }

    /** A submit through the API with outputs that match the declarations: the step completes with them. */
    default void onSubmit(StepContext step, Map<String, Object> outputs) {
        step.complete(outputs, null, null);
    }

    /** Whether a submit may report a failed attempt ({@code error} instead of {@code outputs}). */
    default boolean acceptsSubmittedErrors() {
        return false;
    }

    /** A failed attempt reported through the API; only called when {@link #acceptsSubmittedErrors()}. */
    default void onSubmittedError(StepContext step, StepError error) {
        throw new IllegalStateException("Expected %s steps not to report errors".formatted(type().wireName()));
    }

    /** Whether a result from {@code sop.step-results} answers the step in its current state. */
    default boolean acceptsResult(StepRun step) {
        return false;
    }

    /** A result for the step's current, running attempt; only called when {@link #acceptsResult}. */
    default void onResult(StepContext step, StepResult result) {
        throw new IllegalStateException("Expected %s steps not to take worker results".formatted(type().wireName()));
    }

    /**
     * A result whose outputs would pass the instance's data budget. Nobody waits for an answer to refuse, so the step
     * must still move on; only called when {@link #acceptsResult}.
     */
    default void onResultTooLarge(StepContext step, StepResult result, InstanceTooLarge tooLarge) {
        throw new IllegalStateException("Expected %s steps not to take worker results".formatted(type().wireName()));
    }

    /** The step's timeout passed: it fails, and with it the instance. */
    default void onTimeout(StepContext step) {
        step.fail(StepError.of(InstanceDecider.STEP_TIMEOUT, "Expected step '%s' to be resolved by %s, but its timeout passed"
                .formatted(step.run().id(), step.run().deadline())));
    }

    /** The instance ends while the step is active (cancelled, or failed by another step): the step as it ends. */
    default StepRun onCancel(StepRun step, Instant now) {
        return step.cancel(now);
    }
}
