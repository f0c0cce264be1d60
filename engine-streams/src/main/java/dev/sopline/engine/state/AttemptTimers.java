package dev.sopline.engine.state;

import java.util.ArrayList;
import java.util.List;

/**
 * The timers an instance's active attempts wait on: an attempt's timeout, and the backoff of a failed attempt before
 * the next. When a decision ends an attempt (its step completes, fails, is cancelled or times out, or the attempt
 * fails and waits for its backoff), the attempt's timers have nothing left to do; they are removed in the same
 * transaction, so the timers store holds the timers of live attempts only. Left there, a webhook step's timeout of 7
 * days would be kept a week after its callback came, and would then go through the command log as a
 * {@code fire_timer} command that does nothing, one per step finished a week before.
 */
public final class AttemptTimers {

    private AttemptTimers() {}

    /** Store keys of the timers {@code before}'s active attempts wait on that {@code after}'s do not. */
    public static List<String> endedBetween(Instance before, Instance after) {
        if (before == null) {
            return List.of();
        }
        List<String> ended = new ArrayList<>(0);
        for (StepRun step : before.steps()) {
            // Most steps have no timer (no timeout, no backoff): nothing to look up in the instance after.
            if (!step.isActive() || (step.timeoutTimerAt() == null && step.retryAt() == null)) {
                continue;
            }
            StepRun now = after.step(step.id()).orElse(null);
            boolean sameAttempt = now != null && now.isActive() && now.attempt() == step.attempt();
            if (step.timeoutTimerAt() != null && !(sameAttempt && step.timeoutTimerAt().equals(now.timeoutTimerAt()))) {
                ended.add(new Timer(step.timeoutTimerAt(), Timer.Kind.STEP_TIMEOUT, before.workspace(), before.id(), step.id(), step.attempt()).storeKey());
            }
            if (step.retryAt() != null && !(sameAttempt && step.retryAt().equals(now.retryAt()))) {
                ended.add(new Timer(step.retryAt(), Timer.Kind.RETRY, before.workspace(), before.id(), step.id(), step.attempt()).storeKey());
            }
        }
        return ended;
    }
}
