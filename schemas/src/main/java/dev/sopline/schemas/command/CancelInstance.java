package dev.sopline.schemas.command;

/**
 * Cancel an instance from any non-terminal state.
 *
 * @param commandId correlates the reply
 * @param workspace workspace of the instance
 * @param instanceId instance ULID
 * @param process process name from the path; must match the instance's
 */
public record CancelInstance(String commandId, String workspace, String instanceId, String process) implements InstanceCommand {}
