package dev.sopline.schemas.command;

import dev.sopline.schemas.instance.StepError;
import java.util.Map;

/**
 * Resolve the active step of an instance through the API: a person's or an HTTP worker's outputs, or an HTTP
 * worker's error report.
 *
 * @param commandId correlates the reply
 * @param workspace workspace of the instance
 * @param instanceId instance ULID
 * @param process process name from the path; must match the instance's
 * @param stepId step id from the path
 * @param outputs submitted outputs; null when {@code error} is set
 * @param error a failed attempt reported by an HTTP worker; null when {@code outputs} is set
 * @param actor the token that submitted, for the instance's history; null from senders that do not say
 * @param attempt the attempt the outputs or error are for, as the pending feed showed it; null for whichever is current.
 *                An HTTP worker names it, so that its result of an attempt the engine has moved on from (timed out, then
 *                retried) is refused rather than taken as the next attempt's.
 */
public record SubmitStep(
        String commandId,
        String workspace,
        String instanceId,
        String process,
        String stepId,
        Map<String, Object> outputs,
        StepError error,
        Actor actor,
        Integer attempt) implements InstanceCommand {

    public SubmitStep(String commandId, String workspace, String instanceId, String process, String stepId,
                      Map<String, Object> outputs, StepError error) {
        this(commandId, workspace, instanceId, process, stepId, outputs, error, null, null);
    }

    public SubmitStep(String commandId, String workspace, String instanceId, String process, String stepId,
                      Map<String, Object> outputs, StepError error, Actor actor) {
        this(commandId, workspace, instanceId, process, stepId, outputs, error, actor, null);
    }
}
