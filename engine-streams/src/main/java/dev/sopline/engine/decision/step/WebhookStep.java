package dev.sopline.engine.decision.step;

import dev.sopline.schemas.definition.StepDefinition;
import dev.sopline.schemas.definition.StepType;
import dev.sopline.schemas.instance.Assignee;

/**
 * A third party calls the step's one-shot callback URL ({@code ResolveCallbackHandler}); an operator may also submit
 * its outputs through the API. Without a timeout of its own it expires after 7 days.
 */
final class WebhookStep implements StepBehaviour {

    @Override
    public StepType type() {
        return StepType.WEBHOOK;
    }

    @Override
    public Assignee assignee(StepDefinition declared) {
        return Assignee.THIRD_PARTY;
    }

    @Override
    public boolean issuesCallback() {
        return true;
    }
}
