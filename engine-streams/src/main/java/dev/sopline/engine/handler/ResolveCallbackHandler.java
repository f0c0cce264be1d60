package dev.sopline.engine.handler;

import dev.sopline.engine.decision.Decision;
import dev.sopline.engine.decision.InstanceDecider;
import dev.sopline.engine.decision.Transition;
import dev.sopline.engine.state.Instance;
import dev.sopline.engine.state.StepRun;
import dev.sopline.schemas.command.CommandReply;
import dev.sopline.schemas.command.ErrorCodes;
import dev.sopline.schemas.command.ResolveCallback;
import dev.sopline.schemas.definition.ProcessDefinition;
import dev.sopline.schemas.definition.StepDefinition;
import dev.sopline.schemas.definition.validation.OutputValidator;
import dev.sopline.schemas.instance.StepState;
import dev.sopline.schemas.validation.Violation;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A third party's call to a webhook step's one-shot URL. The body's fields become the declared outputs of the same
 * name, or feed their {@code value} expressions as {@code callback.payload}. A consumed id answers 409; an unknown
 * or expired one 404.
 */
final class ResolveCallbackHandler implements CommandHandler<ResolveCallback> {

    private final DefinitionLookup definitions;
    private final InstanceDecider decider;

    ResolveCallbackHandler(DefinitionLookup definitions, InstanceDecider decider) {
        this.definitions = definitions;
        this.decider = decider;
    }

    @Override
    public Decision decide(ResolveCallback command, Optional<Instance> found, Instant now) {
        Optional<StepRun> owner = found.flatMap(instance -> instance.stepWithCallback(command.callbackId()));
        if (owner.isEmpty()) {
            return Rejections.notFound(command.commandId(), "Expected a callback id issued by a webhook step, but '%s' is unknown"
                    .formatted(command.callbackId()));
        }
        Instance instance = found.get();
        StepRun step = owner.get();
        if (step.state() == StepState.COMPLETED) {
            return Decision.reject(CommandReply.rejected(command.commandId(), 409, ErrorCodes.CALLBACK_ALREADY_RESOLVED,
                    "Expected callback '%s' to be unused, but it was resolved at %s".formatted(command.callbackId(), step.completedAt())));
        }
        boolean expired = step.deadline() != null && !now.isBefore(step.deadline());
        if (!step.isActive() || instance.isTerminal() || expired) {
            return Rejections.notFound(command.commandId(), "Expected callback '%s' to be open, but it has %s"
                    .formatted(command.callbackId(), expired || step.state() == StepState.FAILED ? "expired" : "been closed"));
        }
        ProcessDefinition definition = definitions.version(instance.workspace(), instance.process(), instance.version()).orElseThrow();
        StepDefinition stepDefinition = definition.step(step.id()).orElseThrow();
        Map<String, Object> payload = payloadFields(command.payload());
        Map<String, Object> submitted = new LinkedHashMap<>();
        stepDefinition.outputs().stream()
                .filter(output -> !output.isComputed() && payload.containsKey(output.name()))
                .forEach(output -> submitted.put(output.name(), payload.get(output.name())));
        List<Violation> violations = OutputValidator.validate(stepDefinition.outputs(), submitted);
        if (!violations.isEmpty()) {
            return Rejections.invalid(command.commandId(), ErrorCodes.INVALID_OUTPUTS,
                    "Expected a callback body with the outputs of step '%s'".formatted(step.id()), violations);
        }
        Transition transition = new Transition(instance);
        decider.receiveCallback(transition, command.payload());
        decider.context(transition, definition, step, now).complete(submitted, null, command.payload());
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("received", true);
        body.put("step_id", step.id());
        return transition.decide(CommandReply.ok(command.commandId(), 200, body));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> payloadFields(Object payload) {
        return payload instanceof Map<?, ?> map ? (Map<String, Object>) map : Map.of();
    }
}
