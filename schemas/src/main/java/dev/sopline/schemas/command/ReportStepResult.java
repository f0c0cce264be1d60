package dev.sopline.schemas.command;

import dev.sopline.schemas.event.StepResult;

/**
 * A worker's or agent's result from {@code sop.step-results}, relayed by the engine into its command topic so that
 * results and commands of one instance are decided in the order of one log. Nobody waits for a reply.
 *
 * @param result the published result
 * @param tokenChecked true when the gateway wrote it for a token it checked (an HTTP worker's heartbeat): it then
 *     needs no result key. Null on the relay's copies from {@code sop.step-results}, which anyone with write access to
 *     that topic can write, and on records of earlier versions. Workers cannot write {@code sop.commands} themselves.
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
