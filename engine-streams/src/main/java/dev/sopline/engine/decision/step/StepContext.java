package dev.sopline.engine.decision.step;

import dev.sopline.engine.decision.InstanceDecider;
import dev.sopline.engine.decision.Transition;
import dev.sopline.engine.state.StepRun;
import dev.sopline.schemas.definition.ProcessDefinition;
import dev.sopline.schemas.definition.StepDefinition;
import dev.sopline.schemas.instance.JudgmentDecision;
import dev.sopline.schemas.instance.StepError;
import java.time.Instant;
import java.util.Map;

/**
 * One step within a decision being made, and what a {@link StepBehaviour} may do to it. Each action goes through the
 * decider, so control flow (what starts next, when the instance waits or ends) stays in one place.
 *
 * @param run the step's state as the decision began
 * @param declared the step as the instance's process version declares it
 */
public record StepContext(InstanceDecider decider, Transition transition, ProcessDefinition definition, StepDefinition declared,
                          StepRun run, Instant now) {

    /**
     * Completes the step: its declared outputs taken from {@code submitted} and its {@code value} expressions
     * evaluated (over {@code callbackPayload} too, for a webhook).
     */
    public void complete(Map<String, Object> submitted, JudgmentDecision decision, Object callbackPayload) {
        Map<String, Object> outputs = decider.stepOutputs(transition.instance(), declared, submitted, callbackPayload);
        decider.completeStep(transition, definition, run, outputs, decision, now);
    }

    /** The running attempt now times out at {@code deadline}. */
    public void extendDeadline(Instant deadline) {
        decider.extendDeadline(transition, run, deadline);
    }

    /** A failed attempt: retried after its backoff, or, after the last one, the step and the instance fail. */
    public void failAttempt(StepError error) {
        decider.failAttempt(transition, definition, run, error, now);
    }

    /** A person takes over from the agent. */
    public void escalate(JudgmentDecision agentDecision, Map<String, Object> proposal) {
        decider.escalate(transition, run, agentDecision, proposal);
    }

    /** The step fails, and with it the instance. */
    public void fail(StepError error) {
        decider.failStep(transition, run, error, now);
    }
}
