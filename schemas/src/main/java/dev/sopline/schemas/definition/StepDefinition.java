package dev.sopline.schemas.definition;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One declared step.
 *
 * @param id unique within the process; the {@code step_id} in paths
 * @param name optional human label
 * @param type who resolves the step
 * @param timeout optional duration text ({@code 30s}, {@code 15m}, {@code 4h}, {@code 7d}); for a webhook step the
 *     callback lifetime, 7 days when absent
 * @param run for automated steps, the reference to the work workers register for
 * @param inputs step input mapping, values may hold {@code ${...}} references
 * @param outputs declared outputs
 * @param judgment settings of a judgment step, null for other types
 * @param retry retry policy of an automated step; the defaults apply when absent
 * @param block the id of the parallel block holding the step; null for a step outside any block
 * @param branch the id of the block's branch holding the step; null for a step outside any block
 * @param heartbeatTimeout automated steps: optional duration text; each heartbeat of the running worker moves the
 *     attempt's deadline to that long after it, and an attempt whose heartbeats stop is retried by the retry policy
 */
public record StepDefinition(
        String id,
        String name,
        StepType type,
        String timeout,
        String run,
        Map<String, Object> inputs,
        List<OutputDeclaration> outputs,
        JudgmentSettings judgment,
        RetryPolicy retry,
        String block,
        String branch,
        String heartbeatTimeout) {

    public static final Duration DEFAULT_WEBHOOK_TIMEOUT = Duration.ofDays(7);

    public StepDefinition {
        inputs = inputs == null ? Map.of() : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(inputs));
        outputs = outputs == null ? List.of() : List.copyOf(outputs);
    }

    /** A step outside any parallel block. */
    public StepDefinition(String id, String name, StepType type, String timeout, String run, Map<String, Object> inputs,
                          List<OutputDeclaration> outputs, JudgmentSettings judgment, RetryPolicy retry) {
        this(id, name, type, timeout, run, inputs, outputs, judgment, retry, null, null, null);
    }

    /** A step without heartbeats. */
    public StepDefinition(String id, String name, StepType type, String timeout, String run, Map<String, Object> inputs,
                          List<OutputDeclaration> outputs, JudgmentSettings judgment, RetryPolicy retry, String block, String branch) {
        this(id, name, type, timeout, run, inputs, outputs, judgment, retry, block, branch, null);
    }

    /** The same step, with a heartbeat timeout. */
    public StepDefinition withHeartbeatTimeout(String duration) {
        return new StepDefinition(id, name, type, timeout, run, inputs, outputs, judgment, retry, block, branch, duration);
    }

    /** How long after a heartbeat the attempt times out; empty when the step takes no heartbeats. */
    public Optional<Duration> heartbeatTimeoutDuration() {
        return heartbeatTimeout == null ? Optional.empty() : Durations.parse(heartbeatTimeout);
    }

    /** The same step, placed in a branch of a parallel block. */
    public StepDefinition inBranch(String blockId, String branchId) {
        return new StepDefinition(id, name, type, timeout, run, inputs, outputs, judgment, retry, blockId, branchId, heartbeatTimeout);
    }

    /** The step's timeout; webhook steps without one get the default callback lifetime. */
    public Optional<Duration> timeoutDuration() {
        if (timeout != null) {
            return Durations.parse(timeout);
        }
        return type == StepType.WEBHOOK ? Optional.of(DEFAULT_WEBHOOK_TIMEOUT) : Optional.empty();
    }

    public RetryPolicy retryOrDefault() {
        return retry == null ? RetryPolicy.DEFAULT : retry;
    }

    /** The declared output of this name; outputs without a name (a file still being validated) match nothing. */
    public Optional<OutputDeclaration> output(String outputName) {
        return outputs.stream().filter(output -> outputName != null && outputName.equals(output.name())).findFirst();
    }

    public String label() {
        return name == null ? id : name;
    }
}
