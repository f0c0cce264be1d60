package dev.sopline.schemas.command;

/**
 * Give a failed instance another go: its failed step starts a new attempt, and the steps its failure cancelled become
 * active again.
 *
 * @param commandId correlates the reply
 * @param workspace workspace of the instance
 * @param instanceId instance ULID
 * @param process process name from the path; must match the instance's
 * @param actor the token that asked, for the instance's history; null in tests that do not care
 */
public record RetryInstance(String commandId, String workspace, String instanceId, String process, Actor actor) implements InstanceCommand {}
