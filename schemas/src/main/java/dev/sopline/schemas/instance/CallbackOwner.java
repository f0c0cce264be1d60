package dev.sopline.schemas.instance;

/**
 * Which step a one-shot callback id belongs to; the engine publishes one per webhook step attempt so that any
 * gateway can route a callback to the instance's owner.
 *
 * @param workspace workspace of the instance
 * @param instanceId instance ULID
 * @param stepId the webhook step
 */
public record CallbackOwner(String workspace, String instanceId, String stepId) {}
