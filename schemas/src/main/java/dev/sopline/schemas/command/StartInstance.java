package dev.sopline.schemas.command;

import java.util.Map;

/**
 * Start an instance of the latest version of a process.
 *
 * @param commandId correlates the reply
 * @param workspace target workspace
 * @param instanceId the new instance's ULID, chosen by the sender
 * @param process process name
 * @param inputs start inputs, validated by the engine against the definition it pins
 * @param triggerPayload body of the inbound trigger call, or null
 * @param origin {@code api}, {@code trigger} or {@code schedule}
 * @param seenVersion the latest version the sender saw published, or null; an engine replica that does not hold it
 *     yet waits for it briefly instead of answering 404 or starting an older version
 */
public record StartInstance(
        String commandId,
        String workspace,
        String instanceId,
        String process,
        Map<String, Object> inputs,
        Object triggerPayload,
        String origin,
        String seenVersion) implements InstanceCommand {

    public static final String API = "api";
    public static final String TRIGGER = "trigger";
    public static final String SCHEDULE = "schedule";
}
