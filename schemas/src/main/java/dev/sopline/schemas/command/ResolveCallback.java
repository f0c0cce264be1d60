package dev.sopline.schemas.command;

/**
 * Deliver a third party's call to the one-shot callback URL of a webhook step.
 *
 * @param commandId correlates the reply
 * @param workspace workspace of the instance
 * @param instanceId instance that owns the callback
 * @param callbackId the one-shot id from the URL
 * @param payload the call's JSON body
 */
public record ResolveCallback(String commandId, String workspace, String instanceId, String callbackId, Object payload)
        implements InstanceCommand {}
