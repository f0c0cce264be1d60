package dev.sopline.engine.decision.step;

import dev.sopline.schemas.definition.StepDefinition;
import dev.sopline.schemas.definition.StepType;
import dev.sopline.schemas.instance.Assignee;

/** A person fills in the outputs through the API or the task inbox. */
final class FormStep implements StepBehaviour {

    @Override
    public StepType type() {
        return StepType.FORM;
    }

    @Override
    public Assignee assignee(StepDefinition declared) {
        return Assignee.HUMAN;
    }
}
