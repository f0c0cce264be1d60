package dev.sopline.engine.handler;

import dev.sopline.engine.decision.Decision;
import dev.sopline.engine.decision.InstanceDecider;
import dev.sopline.engine.decision.InstanceTooLarge;
import dev.sopline.engine.decision.Transition;
import dev.sopline.engine.state.Instance;
import dev.sopline.engine.state.StepRun;
import dev.sopline.schemas.command.ErrorCodes;
import dev.sopline.schemas.command.ReportStepResult;
import dev.sopline.schemas.definition.ProcessDefinition;
import dev.sopline.schemas.definition.StepDefinition;
import dev.sopline.schemas.definition.StepType;
import dev.sopline.schemas.definition.validation.OutputValidator;
import dev.sopline.schemas.event.StepResult;
import dev.sopline.schemas.instance.Assignee;
import dev.sopline.schemas.instance.JudgmentDecision;
import dev.sopline.schemas.instance.StepError;
import dev.sopline.schemas.validation.Violation;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Results from {@code sop.step-results}. Workers may deliver a result twice or late (a redelivered step, a worker
 * that resumed after its step was handed to another): anything that does not answer the step's current, running
 * attempt is ignored, which is what makes handing steps to workers at least once safe.
 */
final class ReportStepResultHandler implements CommandHandler<ReportStepResult> {

    private final DefinitionLookup definitions;
    private final InstanceDecider decider;

    ReportStepResultHandler(DefinitionLookup definitions, InstanceDecider decider) {
        this.definitions = definitions;
        this.decider = decider;
    }

    @Override
    public Decision decide(ReportStepResult command, Optional<Instance> found, Instant now) {
        StepResult result = command.result();
        Optional<StepRun> current = found.filter(instance -> !instance.isTerminal()).flatMap(instance -> instance.step(result.stepId()));
        if (current.isEmpty() || !current.get().isReady() || current.get().attempt() != result.attempt()) {
            return Decision.ignore();
        }
        Instance instance = found.get();
        StepRun step = current.get();
        ProcessDefinition definition = definitions.version(instance.workspace(), instance.process(), instance.version()).orElseThrow();
        StepDefinition stepDefinition = definition.step(step.id()).orElseThrow();
        Transition transition = new Transition(instance);
        if (step.type() == StepType.AUTOMATED) {
            onWorkerResult(transition, definition, stepDefinition, step, result, now);
        } else if (step.type() == StepType.JUDGMENT && step.assignee() == Assignee.AGENT) {
            onAgentResult(transition, definition, stepDefinition, step, result, now);
        } else {
            return Decision.ignore();
        }
        return transition.decide(null);
    }

    /**
     * A result whose outputs would pass the instance's budget has no sender to refuse: dropping it would leave the
     * step waiting for its timeout, so the attempt fails with {@code payload_too_large} (and is retried by its
     * policy), or an agent's judgment goes to a person without the proposal.
     */
    @Override
    public Decision tooLarge(ReportStepResult command, Optional<Instance> found, InstanceTooLarge tooLarge, Instant now) {
        Instance instance = found.orElseThrow();
        StepRun step = instance.step(command.result().stepId()).orElseThrow();
        Transition transition = new Transition(instance);
        if (step.type() == StepType.AUTOMATED) {
            ProcessDefinition definition = definitions.version(instance.workspace(), instance.process(), instance.version()).orElseThrow();
            decider.failAttempt(transition, definition, step, StepError.of(ErrorCodes.PAYLOAD_TOO_LARGE, tooLarge.getMessage()), now);
        } else {
            JudgmentDecision decision = command.result().decision();
            decider.escalate(transition, step, new JudgmentDecision(JudgmentDecision.AGENT, decision == null ? null : decision.confidence(),
                    tooLarge.getMessage(), decision == null ? null : decision.model()), null);
        }
        return transition.decide(null);
    }

    private void onWorkerResult(Transition transition, ProcessDefinition definition, StepDefinition stepDefinition, StepRun step,
                                StepResult result, Instant now) {
        if (result.error() != null) {
            decider.failAttempt(transition, definition, step, result.error(), now);
            return;
        }
        Map<String, Object> outputs = result.outputs() == null ? Map.of() : result.outputs();
        List<Violation> violations = OutputValidator.validate(stepDefinition.outputs(), outputs);
        if (!violations.isEmpty()) {
            decider.failAttempt(transition, definition, step, StepError.of("invalid_outputs",
                    "Expected outputs that match step '%s', but %s".formatted(step.id(), describe(violations))), now);
            return;
        }
        decider.completeStep(transition, definition, step, decider.stepOutputs(transition.instance(), stepDefinition, outputs, null), null, now);
    }

    /** Below the threshold, or on an error or an answer that does not fit the outputs, a person takes over. */
    private void onAgentResult(Transition transition, ProcessDefinition definition, StepDefinition stepDefinition, StepRun step,
                               StepResult result, Instant now) {
        JudgmentDecision decision = result.decision() != null ? result.decision()
                : new JudgmentDecision(JudgmentDecision.AGENT, null, null, null);
        if (result.error() != null || result.outputs() == null) {
            String reason = result.error() != null ? result.error().message() : "the agent gave no outputs";
            decider.escalate(transition, step, new JudgmentDecision(JudgmentDecision.AGENT, decision.confidence(), reason, decision.model()), null);
            return;
        }
        List<Violation> violations = OutputValidator.validate(stepDefinition.outputs(), result.outputs());
        double confidence = decision.confidence() == null ? 0 : decision.confidence();
        if (!violations.isEmpty() || confidence < stepDefinition.judgment().confidenceThreshold()) {
            decider.escalate(transition, step, decision, result.outputs());
            return;
        }
        decider.completeStep(transition, definition, step,
                decider.stepOutputs(transition.instance(), stepDefinition, result.outputs(), null), decision, now);
    }

    private static String describe(List<Violation> violations) {
        return violations.stream().map(v -> v.field() + " " + v.code()).toList().toString();
    }
}
