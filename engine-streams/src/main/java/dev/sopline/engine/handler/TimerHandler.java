package dev.sopline.engine.handler;

import dev.sopline.engine.decision.Decision;
import dev.sopline.engine.decision.InstanceDecider;
import dev.sopline.engine.decision.Transition;
import dev.sopline.engine.state.Instance;
import dev.sopline.engine.state.StepRun;
import dev.sopline.engine.state.Timer;
import dev.sopline.schemas.definition.ProcessDefinition;
import java.time.Instant;
import java.util.Optional;

/**
 * Fires step timers. An attempt's timers are removed when it ends ({@code AttemptTimers}); one that fires for an attempt
 * that has moved on all the same (set by an earlier version, or read back after its attempt ended) finds nothing to
 * do. A timeout whose deadline heartbeats moved later is set again at that deadline, where the step notes it, so one
 * timer per attempt follows them.
 */
public final class TimerHandler {

    private final DefinitionLookup definitions;
    private final InstanceDecider decider;

    public TimerHandler(DefinitionLookup definitions, InstanceDecider decider) {
        this.definitions = definitions;
        this.decider = decider;
    }

    public Decision fire(Timer timer, Optional<Instance> found, Instant now) {
        Optional<StepRun> current = found.filter(instance -> !instance.isTerminal())
                .flatMap(instance -> instance.step(timer.stepId()))
                .filter(step -> step.isActive() && step.attempt() == timer.attempt());
        if (current.isEmpty()) {
            return Decision.ignore();
        }
        Instance instance = found.get();
        StepRun step = current.get();
        ProcessDefinition definition = definitions.version(instance.workspace(), instance.process(), instance.version()).orElseThrow();
        Transition transition = new Transition(instance);
        switch (timer.kind()) {
            case RETRY -> {
                if (step.retryAt() == null) {
                    return Decision.ignore();
                }
                decider.retry(transition, definition, step, now);
            }
            case STEP_TIMEOUT -> {
                if (step.deadline() == null) {
                    return Decision.ignore();
                }
                if (now.isBefore(step.deadline())) {
                    // Heartbeats moved the deadline without a timer of their own: this one goes on to where it is now.
                    decider.moveTimeoutTimer(transition, step);
                    return transition.decide(null);
                }
                decider.timeOut(transition, definition, step, now);
            }
            default -> {
                return Decision.ignore();
            }
        }
        return transition.decide(null);
    }
}
