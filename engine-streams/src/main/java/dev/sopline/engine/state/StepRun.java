package dev.sopline.engine.state;

import com.fasterxml.jackson.annotation.JsonIgnore;
import dev.sopline.schemas.definition.StepType;
import dev.sopline.schemas.instance.Assignee;
import dev.sopline.schemas.instance.JudgmentDecision;
import dev.sopline.schemas.instance.StepError;
import dev.sopline.schemas.instance.StepState;
import dev.sopline.schemas.instance.StepView;
import java.time.Instant;
import java.util.Map;

/**
 * The engine's record of one step of an instance. Beyond what {@link StepView} shows, it keeps the resolved inputs,
 * the deadline of the current attempt, when a failed attempt is retried, and an escalated agent's proposal.
 *
 * @param inputs the resolved inputs of the active attempt; dropped when the step ends, as nothing reads them after
 *     and the instance record would otherwise hold a copy per step
 * @param readyAt when the current attempt became ready; orders the pending feed
 * @param retryAt set while a failed attempt waits for its backoff; the step is not offered to workers meanwhile
 * @param proposal the outputs an agent proposed before escalating
 * @param block the parallel block holding the step, null outside blocks (and in records written before blocks)
 * @param branch the block's branch holding the step, null outside blocks
 * @param roundStart the attempt an operator's retry of the instance began its round with, against which the step's
 *                   retry policy counts; null for the first round (attempt 1), and in records written before retries
 * @param timeoutTimerAt when the active attempt's timeout timer is due: the deadline it was set for, which heartbeats
 *                   move on without moving the timer; null when the attempt has no timeout timer, once the attempt has
 *                   ended, and in records written before it was kept (their timers are left to fire and do nothing)
 */
public record StepRun(
        String id,
        String name,
        StepType type,
        StepState state,
        int attempt,
        Assignee assignee,
        boolean escalated,
        JudgmentDecision decision,
        String callbackId,
        Map<String, Object> inputs,
        Map<String, Object> outputs,
        Map<String, Object> proposal,
        StepError error,
        Instant startedAt,
        Instant readyAt,
        Instant deadline,
        Instant retryAt,
        Instant completedAt,
        String block,
        String branch,
        Integer roundStart,
        Instant timeoutTimerAt) {

    public static StepRun pending(String id, String name, StepType type) {
        return pending(id, name, type, null, null);
    }

    /** A step not reached yet; {@code block} and {@code branch} place a step of a parallel block, else null. */
    public static StepRun pending(String id, String name, StepType type, String block, String branch) {
        return new StepRun(id, name, type, StepState.PENDING, 0, null, false, null, null, null, null, null, null,
                null, null, null, null, null, block, branch, null, null);
    }

    /** Attempts of this round so far, the current one included: what the step's retry policy counts. */
    @JsonIgnore
    public int attemptsThisRound() {
        return attempt - (roundStart == null ? 1 : roundStart) + 1;
    }

    @JsonIgnore
    public boolean isActive() {
        return state == StepState.ACTIVE;
    }

    /** Active and offered to its resolver: not waiting for the backoff of a failed attempt. */
    @JsonIgnore
    public boolean isReady() {
        return state == StepState.ACTIVE && retryAt == null;
    }

    public StepRun activate(Assignee newAssignee, int newAttempt, Map<String, Object> resolvedInputs, String newCallbackId,
                            Instant now, Instant newDeadline) {
        return new StepRun(id, name, type, StepState.ACTIVE, newAttempt, newAssignee, false, null, newCallbackId,
                resolvedInputs, null, null, null, startedAt == null ? now : startedAt, now, newDeadline, null, null, block, branch,
                newAttempt > 1 ? Integer.valueOf(newAttempt) : null, newDeadline);
    }

    public StepRun retryAfterBackoff(Instant now, Instant newDeadline) {
        return new StepRun(id, name, type, state, attempt + 1, assignee, escalated, decision, callbackId, inputs, outputs,
                proposal, null, startedAt, now, newDeadline, null, completedAt, block, branch, roundStart, newDeadline);
    }

    /** The same attempt, timing out at {@code newDeadline} instead: a heartbeat of its worker. */
    public StepRun withDeadline(Instant newDeadline) {
        return new StepRun(id, name, type, state, attempt, assignee, escalated, decision, callbackId, inputs, outputs,
                proposal, error, startedAt, readyAt, newDeadline, retryAt, completedAt, block, branch, roundStart, timeoutTimerAt);
    }

    /** The same attempt, its timeout timer set again at {@code dueAt}: the deadline heartbeats moved it to. */
    public StepRun withTimeoutTimerAt(Instant dueAt) {
        return new StepRun(id, name, type, state, attempt, assignee, escalated, decision, callbackId, inputs, outputs,
                proposal, error, startedAt, readyAt, deadline, retryAt, completedAt, block, branch, roundStart, dueAt);
    }

    public StepRun attemptFailed(StepError attemptError, Instant retryWhen) {
        return new StepRun(id, name, type, state, attempt, assignee, escalated, decision, callbackId, inputs, outputs,
                proposal, attemptError, startedAt, readyAt, null, retryWhen, completedAt, block, branch, roundStart, null);
    }

    public StepRun escalate(JudgmentDecision agentDecision, Map<String, Object> agentProposal) {
        return new StepRun(id, name, type, state, attempt, Assignee.HUMAN, true, agentDecision, callbackId, inputs, outputs,
                agentProposal, error, startedAt, readyAt, deadline, retryAt, completedAt, block, branch, roundStart, timeoutTimerAt);
    }

    public StepRun complete(Map<String, Object> newOutputs, JudgmentDecision newDecision, Instant now) {
        return new StepRun(id, name, type, StepState.COMPLETED, attempt, assignee, escalated,
                newDecision != null ? newDecision : decision, callbackId, null, newOutputs, proposal, null, startedAt,
                readyAt, null, null, now, block, branch, roundStart, null);
    }

    public StepRun fail(StepError failure, Instant now) {
        return new StepRun(id, name, type, StepState.FAILED, attempt, assignee, escalated, decision, callbackId, null,
                outputs, proposal, failure, startedAt, readyAt, null, null, now, block, branch, roundStart, null);
    }

    public StepRun cancel(Instant now) {
        return new StepRun(id, name, type, StepState.CANCELLED, attempt, assignee, escalated, decision, callbackId, null,
                outputs, proposal, error, startedAt, readyAt, null, null, now, block, branch, roundStart, null);
    }

    public StepView view() {
        return new StepView(id, name, type, state, attempt, isActive() ? assignee : null, escalated ? Boolean.TRUE : null,
                decision, isActive() ? callbackId : null, outputs, error, startedAt, completedAt, block, branch);
    }
}
