package dev.sopline.schemas.command;

import dev.sopline.schemas.event.StepResult;

/**
 * A worker's or agent's result read from {@code sop.step-results}. Nobody waits for a reply.
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
