package dev.sopline.engine.state;

import dev.sopline.schemas.definition.ProcessDefinition;
import dev.sopline.schemas.definition.StepDefinition;
import dev.sopline.schemas.instance.PendingStep;

/** Builds pending-feed entries from a stored step and its definition. */
public final class PendingSteps {

    private PendingSteps() {}

    public static PendingStep of(Instance instance, StepRun step, ProcessDefinition definition) {
        StepDefinition declared = definition.step(step.id()).orElseThrow();
        return new PendingStep(instance.id(), instance.process(), instance.version(), step.id(), declared.label(), step.type(),
                declared.run(), step.assignee(), step.escalated(), step.inputs(), declared.outputs(), step.attempt(),
                step.proposal(), step.escalated() ? step.decision() : null,
                declared.judgment() == null ? null : declared.judgment().instructions(), step.callbackId(), step.readyAt(),
                step.block(), step.branch());
    }
}
