package dev.sopline.schemas.event;

import dev.sopline.schemas.definition.JudgmentSettings;
import dev.sopline.schemas.definition.OutputDeclaration;
import dev.sopline.schemas.definition.StepType;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Published to {@code sop.steps.<type>} when a step attempt becomes active: everything a worker, an agent or a
 * task list needs to resolve it. Keyed by instance id.
 *
 * @param workspace workspace of the instance
 * @param instanceId ULID of the instance
 * @param process process name
 * @param version process version
 * @param stepId step id
 * @param name human label of the step
 * @param type step type, the topic suffix
 * @param run for automated steps, what to run
 * @param attempt attempt number from 1; a result names it so late or duplicate results are ignored
 * @param inputs the step's resolved inputs
 * @param outputs the outputs the step must produce
 * @param judgment settings of a judgment step
 * @param callbackId one-shot callback id of a webhook step
 * @param deadline when the attempt times out, if it has a timeout
 * @param createdAt when the attempt became active
 * @param heartbeatTimeout automated steps that take heartbeats: the step's {@code heartbeat_timeout} as written in the
 *     process file; each heartbeat moves the deadline to this long after it. Absent for other steps, and in events of
 *     engines before it was added
 * @param resultKey this attempt's key, which its result must carry back ({@link StepResult#resultKey()}): with it, only
 *     the worker that was handed the step can answer it. Absent in events of engines before it was added
 */
public record StepReady(
        String workspace,
        String instanceId,
        String process,
        String version,
        String stepId,
        String name,
        StepType type,
        String run,
        int attempt,
        Map<String, Object> inputs,
        List<OutputDeclaration> outputs,
        JudgmentSettings judgment,
        String callbackId,
        Instant deadline,
        Instant createdAt,
        String heartbeatTimeout,
        String resultKey) {

    /** A step that takes no heartbeats. */
    public StepReady(String workspace, String instanceId, String process, String version, String stepId, String name, StepType type,
                     String run, int attempt, Map<String, Object> inputs, List<OutputDeclaration> outputs, JudgmentSettings judgment,
                     String callbackId, Instant deadline, Instant createdAt) {
        this(workspace, instanceId, process, version, stepId, name, type, run, attempt, inputs, outputs, judgment, callbackId, deadline,
                createdAt, null, null);
    }

    /** A step without a result key, as engines before it wrote them. */
    public StepReady(String workspace, String instanceId, String process, String version, String stepId, String name, StepType type,
                     String run, int attempt, Map<String, Object> inputs, List<OutputDeclaration> outputs, JudgmentSettings judgment,
                     String callbackId, Instant deadline, Instant createdAt, String heartbeatTimeout) {
        this(workspace, instanceId, process, version, stepId, name, type, run, attempt, inputs, outputs, judgment, callbackId, deadline,
                createdAt, heartbeatTimeout, null);
    }
}
