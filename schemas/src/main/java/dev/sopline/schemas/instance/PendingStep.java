package dev.sopline.schemas.instance;

import dev.sopline.schemas.definition.OutputDeclaration;
import dev.sopline.schemas.definition.StepType;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * An entry of the pending-steps feed ({@code GET /sop/steps/pending}): a step attempt waiting to be resolved.
 *
 * @param instanceId instance ULID
 * @param process process name
 * @param version process version
 * @param stepId step id
 * @param name human label
 * @param type step type
 * @param run for automated steps, what to run
 * @param assignee who is expected to resolve it
 * @param escalated whether an agent handed it to a person
 * @param inputs the step's resolved inputs
 * @param outputs the outputs to submit (name, type, values)
 * @param attempt current attempt
 * @param proposal for an escalated judgment, the outputs the agent proposed
 * @param decision for an escalated judgment, the agent's confidence and rationale
 * @param instructions for a judgment, its instructions
 * @param callbackId for a webhook step, its one-shot callback id
 * @param createdAt when the attempt became ready; the feed is ordered by it, oldest first
 * @param block the parallel block holding the step; null outside blocks (and in entries stored before blocks)
 * @param branch the block's branch holding the step; null outside blocks
 */
public record PendingStep(
        String instanceId,
        String process,
        String version,
        String stepId,
        String name,
        StepType type,
        String run,
        Assignee assignee,
        boolean escalated,
        Map<String, Object> inputs,
        List<OutputDeclaration> outputs,
        int attempt,
        Map<String, Object> proposal,
        JudgmentDecision decision,
        String instructions,
        String callbackId,
        Instant createdAt,
        String block,
        String branch) {}
