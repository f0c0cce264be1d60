package dev.sopline.schemas.command;

import dev.sopline.schemas.event.StepResult;

/**
 * A worker's or agent's result on the engine's command topic, so that results and commands of one instance are
 * decided in the order of one log: written there by SDK workers themselves, or relayed by the engine from
 * {@code sop.step-results}. Nobody waits for a reply.
 *
 * @param result the published result
 * @param tokenChecked true when the gateway wrote it for a token it checked (an HTTP worker's heartbeat): it then
 *     needs no result key. Taken only from a record the platform signed: the engine clears it on any unsigned one,
 *     as workers write theirs, so a worker's own claim never spares its result the key check.
 */
public record ReportStepResult(StepResult result, Boolean tokenChecked) implements InstanceCommand {

    /** A result copied from {@code sop.step-results}: its key is checked. */
    public ReportStepResult(StepResult result) {
        this(result, null);
    }

    /** Whether the gateway checked the sender's token, so the result's key is not needed. */
    public boolean senderChecked() {
        return Boolean.TRUE.equals(tokenChecked);
    }

    @Override
    public String commandId() {
        return null;
    }

    @Override
    public String workspace() {
        return result.workspace();
    }

    @Override
    public String instanceId() {
        return result.instanceId();
    }
}
