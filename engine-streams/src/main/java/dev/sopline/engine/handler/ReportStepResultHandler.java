package dev.sopline.engine.handler;

import dev.sopline.engine.decision.Decision;
import dev.sopline.engine.decision.InstanceDecider;
import dev.sopline.engine.decision.InstanceTooLarge;
import dev.sopline.engine.decision.Transition;
import dev.sopline.engine.decision.step.StepBehaviour;
import dev.sopline.engine.state.Instance;
import dev.sopline.engine.state.StepRun;
import dev.sopline.schemas.command.ReportStepResult;
import dev.sopline.schemas.definition.ProcessDefinition;
import dev.sopline.schemas.event.StepResult;
import java.time.Instant;
import java.util.Optional;

/**
 * Results from {@code sop.step-results}. Workers may deliver a result twice or late (a redelivered step, a worker
 * that resumed after its step was handed to another): anything that does not answer the step's current, running
 * attempt is ignored, which is what makes handing steps to workers at least once safe. What a result does is the
 * step type's ({@link StepBehaviour#onResult}).
 */
final class ReportStepResultHandler implements CommandHandler<ReportStepResult> {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(ReportStepResultHandler.class);

    private final DefinitionLookup definitions;
    /** Results ignored for their key, by this task's handler: for logging only, never part of a decision. */
    private long ignoredForKey;
    private final InstanceDecider decider;

    ReportStepResultHandler(DefinitionLookup definitions, InstanceDecider decider) {
        this.definitions = definitions;
        this.decider = decider;
    }

    @Override
    public Decision decide(ReportStepResult command, Optional<Instance> found, Instant now) {
        StepResult result = command.result();
        Optional<StepRun> current = found.filter(instance -> !instance.isTerminal()).flatMap(instance -> instance.step(result.stepId()));
        if (current.isEmpty() || !current.get().isReady() || current.get().attempt() != result.attempt()
                || !decider.behaviour(current.get()).acceptsResult(current.get())) {
            return Decision.ignore();
        }
        if (!command.senderChecked() && !decider.acceptsResultKey(result)) {
            // One line per 1,000: a writer of sop.step-results can send such results as fast as it likes.
            if (ignoredForKey++ % 1_000 == 0) {
                LOG.warn("Ignoring a result for step {} of instance {}, attempt {}, from worker '{}': it carries {} result key ({} ignored so far)",
                        result.stepId(), result.instanceId(), result.attempt(), result.worker(), result.resultKey() == null ? "no" : "a wrong",
                        ignoredForKey);
            }
            return Decision.ignore();
        }
        Instance instance = found.get();
        StepRun step = current.get();
        Transition transition = new Transition(instance);
        decider.behaviour(step).onResult(decider.context(transition, definition(instance), step, now), result);
        // A heartbeat of a step declared without heartbeats, or one that moves no deadline, changes nothing: writing
        // the instance again would cost a store write and changelog records for every heartbeat a worker sends.
        return transition.changedNothing() ? Decision.ignore() : transition.decide(null);
    }

    /**
     * A result whose outputs would pass the instance's budget has no sender to refuse: dropping it would leave the
     * step waiting for its timeout, so the step's type moves it on without the outputs.
     */
    @Override
    public Decision tooLarge(ReportStepResult command, Optional<Instance> found, InstanceTooLarge tooLarge, Instant now) {
        Instance instance = found.orElseThrow();
        StepRun step = instance.step(command.result().stepId()).orElseThrow();
        Transition transition = new Transition(instance);
        decider.behaviour(step).onResultTooLarge(decider.context(transition, definition(instance), step, now), command.result(), tooLarge);
        return transition.decide(null);
    }

    private ProcessDefinition definition(Instance instance) {
        return definitions.version(instance.workspace(), instance.process(), instance.version()).orElseThrow();
    }
}
