package dev.sopline.schemas.command;

import dev.sopline.schemas.event.StepResult;

/**
 * A worker's or agent's result from {@code sop.step-results}, relayed by the engine into its command topic so that
 * results and commands of one instance are decided in the order of one log. Nobody waits for a reply.
 *
 * @param result the published result
 */
public record ReportStepResult(StepResult result) implements InstanceCommand {

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
