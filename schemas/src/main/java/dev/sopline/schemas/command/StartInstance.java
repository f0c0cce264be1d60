package dev.sopline.schemas.command;

import java.util.Map;

/**
 * Start an instance of a process: of the version the sender saw published when it names one, else of the latest.
 *
 * @param commandId correlates the reply
 * @param workspace target workspace
 * @param instanceId the new instance's ULID, chosen by the sender
 * @param process process name
 * @param inputs start inputs, validated by the engine against the definition it pins
 * @param triggerPayload body of the inbound trigger call, or null
 * @param origin {@code api}, {@code trigger} or {@code schedule}
 * @param seenVersion the latest version the sender saw published, or null; the engine starts exactly this version
 *     (not whatever is latest when it decides, so a replay decides the same), and a replica that does not hold it
 *     yet waits for it briefly instead of answering 404 or starting another version
 * @param actor the token that started it over the API, for the instance's history; null for triggers and schedules
 */
public record StartInstance(
        String commandId,
        String workspace,
        String instanceId,
        String process,
        Map<String, Object> inputs,
        Object triggerPayload,
        String origin,
        String seenVersion,
        Actor actor) implements InstanceCommand {

    public StartInstance(String commandId, String workspace, String instanceId, String process, Map<String, Object> inputs,
                         Object triggerPayload, String origin, String seenVersion) {
        this(commandId, workspace, instanceId, process, inputs, triggerPayload, origin, seenVersion, null);
    }

    public static final String API = "api";
    public static final String TRIGGER = "trigger";
    public static final String SCHEDULE = "schedule";
}
