package dev.sopline.worker;

import java.util.Map;

/**
 * One attempt of an automated step, as a handler receives it.
 *
 * @param workspace workspace of the instance
 * @param instanceId instance ULID
 * @param process process name
 * @param version process version
 * @param stepId step id
 * @param run the {@code run} reference the handler is registered for
 * @param attempt attempt number, from 1
 * @param inputs the step's resolved inputs
 */
public record StepContext(
        String workspace, String instanceId, String process, String version, String stepId, String run, int attempt,
        Map<String, Object> inputs) {

    public StepContext {
        inputs = inputs == null ? Map.of() : inputs;
    }

    /** One input, or null when absent. */
    public Object input(String name) {
        return inputs.get(name);
    }
}
