package dev.sopline.schemas.instance;

import dev.sopline.schemas.definition.StepType;
import java.time.Instant;
import java.util.Map;

/**
 * A step of an instance as the API and the {@code sop.events} topic show it.
 *
 * @param id step id from the definition
 * @param name human label
 * @param type who resolves it
 * @param state current state
 * @param attempt current attempt, from 1; 0 while the step is pending
 * @param assignee who is expected to resolve it while active
 * @param escalated whether a judgment was handed from the agent to a person
 * @param decision who decided a judgment step and how sure they were
 * @param callbackId one-shot callback id of an active webhook step; the gateway shows it as {@code callback_url}
 * @param outputs outputs, once the step has them
 * @param error why the step failed
 * @param startedAt when the step became active
 * @param completedAt when the step reached a terminal state
 * @param block the id of the parallel block the step belongs to; null outside blocks
 * @param branch the id of the step's branch in that block; null outside blocks
 */
public record StepView(
        String id,
        String name,
        StepType type,
        StepState state,
        int attempt,
        Assignee assignee,
        Boolean escalated,
        JudgmentDecision decision,
        String callbackId,
        Map<String, Object> outputs,
        StepError error,
        Instant startedAt,
        Instant completedAt,
        String block,
        String branch) {

    /** A step outside any parallel block. */
    public StepView(String id, String name, StepType type, StepState state, int attempt, Assignee assignee, Boolean escalated,
            JudgmentDecision decision, String callbackId, Map<String, Object> outputs, StepError error, Instant startedAt,
            Instant completedAt) {
        this(id, name, type, state, attempt, assignee, escalated, decision, callbackId, outputs, error, startedAt, completedAt, null, null);
    }
}
