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
 * @param heartbeats where {@link #heartbeat()} goes; a context built without one sends nothing
 */
public record StepContext(
        String workspace, String instanceId, String process, String version, String stepId, String run, int attempt,
        Map<String, Object> inputs, Heartbeats heartbeats) {

    public StepContext {
        inputs = inputs == null ? Map.of() : inputs;
        heartbeats = heartbeats == null ? Heartbeats.NONE : heartbeats;
    }

    public StepContext(String workspace, String instanceId, String process, String version, String stepId, String run, int attempt,
                       Map<String, Object> inputs) {
        this(workspace, instanceId, process, version, stepId, run, attempt, inputs, null);
    }

    /** One input, or null when absent. */
    public Object input(String name) {
        return inputs.get(name);
    }

    /**
     * Tells the engine this attempt is still being worked on: for a step with a {@code heartbeat_timeout}, its deadline
     * moves to that long from now. Call it well within each {@code heartbeat_timeout} from a long-running handler; if
     * the calls stop (the worker died or hangs), the attempt times out and another worker gets the step. Cheap enough
     * to call in a loop; a heartbeat that cannot be sent is logged and does not fail the handler.
     */
    public void heartbeat() {
        heartbeats.send(this);
    }

    /** Sends the heartbeats of a worker's steps, over Kafka or HTTP. */
    @FunctionalInterface
    public interface Heartbeats {

        Heartbeats NONE = step -> { };

        void send(StepContext step);
    }
}
