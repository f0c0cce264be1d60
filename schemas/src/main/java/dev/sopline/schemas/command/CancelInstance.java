package dev.sopline.schemas.command;

/**
 * Cancel an instance from any non-terminal state.
 *
 * @param commandId correlates the reply
 * @param workspace workspace of the instance
 * @param instanceId instance ULID
 * @param process process name from the path; must match the instance's
 * @param actor the token that cancelled, for the instance's history; null from senders that do not say
 */
public record CancelInstance(String commandId, String workspace, String instanceId, String process, Actor actor) implements InstanceCommand {

    public CancelInstance(String commandId, String workspace, String instanceId, String process) {
        this(commandId, workspace, instanceId, process, null);
    }
}
