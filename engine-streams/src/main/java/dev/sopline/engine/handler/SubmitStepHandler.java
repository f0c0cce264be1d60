package dev.sopline.engine.handler;

import dev.sopline.engine.decision.Decision;
import dev.sopline.engine.decision.InstanceDecider;
import dev.sopline.engine.decision.Transition;
import dev.sopline.engine.decision.step.StepBehaviour;
import dev.sopline.engine.state.Instance;
import dev.sopline.engine.state.StepRun;
import dev.sopline.schemas.command.CommandReply;
import dev.sopline.schemas.command.ErrorCodes;
import dev.sopline.schemas.command.SubmitStep;
import dev.sopline.schemas.definition.ProcessDefinition;
import dev.sopline.schemas.definition.StepDefinition;
import dev.sopline.schemas.definition.validation.OutputValidator;
import dev.sopline.schemas.validation.Violation;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

final class SubmitStepHandler implements CommandHandler<SubmitStep> {

    private final DefinitionLookup definitions;
    private final InstanceDecider decider;

    SubmitStepHandler(DefinitionLookup definitions, InstanceDecider decider) {
        this.definitions = definitions;
        this.decider = decider;
    }

    @Override
    public Decision decide(SubmitStep command, Optional<Instance> found, Instant now) {
        if (found.isEmpty() || !found.get().process().equals(command.process())) {
            return Rejections.instanceNotFound(command.commandId(), command.process(), command.instanceId());
        }
        Instance instance = found.get();
        ProcessDefinition definition = definitions.version(instance.workspace(), instance.process(), instance.version()).orElseThrow();
        Optional<StepDefinition> stepDefinition = definition.step(command.stepId());
        if (stepDefinition.isEmpty()) {
            return Rejections.notFound(command.commandId(), "Expected to find step '%s' in process '%s', but it declares none"
                    .formatted(command.stepId(), instance.process()));
        }
        StepRun step = instance.step(command.stepId()).orElseThrow();
        if (instance.isTerminal() || !step.isActive()) {
            return Rejections.invalidTransition(command.commandId(), "Expected step '%s' of instance '%s' to be active, but it is %s"
                    .formatted(step.id(), instance.id(), instance.isTerminal() && step.isActive() ? instance.state() : step.state()));
        }
        if (command.attempt() != null && command.attempt() != step.attempt()) {
            return Rejections.invalidTransition(command.commandId(),
                    "Expected a result of attempt %d of step '%s', the current one, but it is of attempt %d, which the engine has moved on from"
                            .formatted(step.attempt(), step.id(), command.attempt()));
        }
        Transition transition = new Transition(instance);
        StepBehaviour behaviour = decider.behaviour(step);
        if (command.error() != null) {
            if (!behaviour.acceptsSubmittedErrors()) {
                return Rejections.invalid(command.commandId(), ErrorCodes.INVALID_OUTPUTS,
                        "Expected outputs for %s step '%s'; only automated steps report errors".formatted(step.type(), step.id()),
                        List.of(Violation.of("error", "not_allowed", "Only automated steps report errors")));
            }
            if (!step.isReady()) {
                return Rejections.invalidTransition(command.commandId(),
                        "Expected attempt %d of step '%s' to be running, but it already failed and waits for its retry"
                                .formatted(step.attempt(), step.id()));
            }
            behaviour.onSubmittedError(decider.context(transition, definition, step, now), command.error());
        } else {
            List<Violation> violations = OutputValidator.validate(stepDefinition.get().outputs(), command.outputs());
            if (!violations.isEmpty()) {
                return Rejections.invalid(command.commandId(), ErrorCodes.INVALID_OUTPUTS,
                        "Expected outputs that match step '%s'".formatted(step.id()), violations);
            }
            behaviour.onSubmit(decider.context(transition, definition, step, now), command.outputs());
        }
        StepRun updated = transition.instance().step(step.id()).orElseThrow();
        return transition.decide(CommandReply.ok(command.commandId(), 200, updated.view()));
    }
}
