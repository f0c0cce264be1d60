package dev.sopline.schemas.event;

import dev.sopline.schemas.instance.JudgmentDecision;
import dev.sopline.schemas.instance.StepError;
import dev.sopline.schemas.instance.Texts;
import java.time.Instant;
import java.util.Map;

/**
 * Published to {@code sop.step-results} by workers and the judgment agent: the outputs of one step attempt, or
 * the error that failed it. Keyed by instance id. The engine ignores a result whose attempt is not the step's
 * current one, so redelivered and duplicate results are harmless.
 *
 * @param workspace workspace of the instance
 * @param instanceId ULID of the instance
 * @param stepId step id
 * @param attempt the attempt this result answers, as given by {@link StepReady#attempt()}
 * @param outputs the step's outputs; null when {@code error} is set
 * @param error why the attempt failed; null when {@code outputs} is set
 * @param decision for judgment steps, the agent's confidence, rationale and model
 * @param worker identifies the worker process, for diagnostics
 * @param reportedAt when the worker finished
 * @param heartbeat true for a running worker's sign of life: neither outputs nor error, the attempt's deadline moves
 *     by the step's {@code heartbeat_timeout}; absent on results
 * @param resultKey the key its step-ready event carried ({@link StepReady#resultKey()}), carried back; required by an
 *     engine run with {@code SOP_RESULT_KEYS=required}
 */
public record StepResult(
        String workspace,
        String instanceId,
        String stepId,
        int attempt,
        Map<String, Object> outputs,
        StepError error,
        JudgmentDecision decision,
        String worker,
        Instant reportedAt,
        Boolean heartbeat,
        String resultKey) {

    public StepResult(String workspace, String instanceId, String stepId, int attempt, Map<String, Object> outputs, StepError error,
                      JudgmentDecision decision, String worker, Instant reportedAt) {
        this(workspace, instanceId, stepId, attempt, outputs, error, decision, worker, reportedAt, null, null);
    }

    public StepResult(String workspace, String instanceId, String stepId, int attempt, Map<String, Object> outputs, StepError error,
                      JudgmentDecision decision, String worker, Instant reportedAt, Boolean heartbeat) {
        this(workspace, instanceId, stepId, attempt, outputs, error, decision, worker, reportedAt, heartbeat, null);
    }

    /** This result carrying {@code key}, the key of the step-ready event it answers. */
    public StepResult withResultKey(String key) {
        return new StepResult(workspace, instanceId, stepId, attempt, outputs, error, decision, worker, reportedAt, heartbeat, key);
    }

    /** A heartbeat of the worker running this attempt. */
    public static StepResult heartbeat(String workspace, String instanceId, String stepId, int attempt, String worker, Instant at) {
        return new StepResult(workspace, instanceId, stepId, attempt, null, null, null, worker, at, true);
    }

    public boolean carriesHeartbeat() {
        return Boolean.TRUE.equals(heartbeat);
    }

    /** The longest worker name kept. */
    public static final int MAX_WORKER_CHARS = 256;
    /** The longest result key kept: an engine's are 26 characters, and a longer one is wrong whatever it holds. */
    public static final int MAX_KEY_CHARS = 64;

    /**
     * This result with the texts its sender chose cut to their bounds: the worker's name, the result key, the error
     * ({@link StepError#bounded()}) and the judgment's decision ({@link JudgmentDecision#bounded()}). The engine keeps
     * them on the step, in its history and in its events, outside the instance's data budget. The outputs are not
     * touched: the budget counts them.
     */
    public StepResult bounded() {
        String boundedWorker = Texts.cut(worker, MAX_WORKER_CHARS);
        StepError boundedError = error == null ? null : error.bounded();
        JudgmentDecision boundedDecision = decision == null ? null : decision.bounded();
        String boundedKey = Texts.cut(resultKey, MAX_KEY_CHARS);
        return boundedWorker == worker && boundedError == error && boundedDecision == decision && boundedKey == resultKey ? this
                : new StepResult(workspace, instanceId, stepId, attempt, outputs, boundedError, boundedDecision, boundedWorker, reportedAt, heartbeat,
                        boundedKey);
    }
}
