package dev.sopline.engine.api.query;

import dev.sopline.schemas.definition.StepType;
import dev.sopline.schemas.instance.Assignee;
import dev.sopline.schemas.instance.PendingStep;

/**
 * Filters of the pending-steps feed; a null field matches anything.
 *
 * @param type step type
 * @param process process name
 * @param run the automated step's {@code run}
 * @param assignee who is expected to resolve it
 * @param instanceId the instance the step belongs to
 */
public record PendingFilter(StepType type, String process, String run, Assignee assignee, String instanceId) {

    public static final PendingFilter ANY = new PendingFilter(null, null, null, null);

    public PendingFilter(StepType type, String process, String run, Assignee assignee) {
        this(type, process, run, assignee, null);
    }

    public boolean matches(PendingStep step) {
        return (type == null || type == step.type())
                && (process == null || process.equals(step.process()))
                && (run == null || run.equals(step.run()))
                && (assignee == null || assignee == step.assignee())
                && (instanceId == null || instanceId.equals(step.instanceId()));
    }
}
