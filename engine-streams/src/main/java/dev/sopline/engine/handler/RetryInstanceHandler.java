package dev.sopline.engine.handler;

import dev.sopline.engine.decision.Decision;
import dev.sopline.engine.decision.InstanceDecider;
import dev.sopline.engine.decision.Transition;
import dev.sopline.engine.state.Instance;
import dev.sopline.engine.state.StepRun;
import dev.sopline.schemas.command.CommandReply;
import dev.sopline.schemas.command.RetryInstance;
import dev.sopline.schemas.definition.ProcessDefinition;
import dev.sopline.schemas.instance.InstanceState;
import java.time.Instant;
import java.util.Optional;

/** An operator gives a failed instance another go; any other state, or a retired process, is refused. */
final class RetryInstanceHandler implements CommandHandler<RetryInstance> {

    private final DefinitionLookup definitions;
    private final InstanceDecider decider;

    RetryInstanceHandler(DefinitionLookup definitions, InstanceDecider decider) {
        this.definitions = definitions;
        this.decider = decider;
    }

    @Override
    public Decision decide(RetryInstance command, Optional<Instance> found, Instant now) {
        if (found.isEmpty() || !found.get().process().equals(command.process())) {
            return Rejections.instanceNotFound(command.commandId(), command.process(), command.instanceId());
        }
        Instance instance = found.get();
        if (instance.state() != InstanceState.FAILED) {
            return Rejections.invalidTransition(command.commandId(),
                    "Expected instance '%s' to be failed to retry it, but it is %s".formatted(instance.id(), instance.state()));
        }
        // As a start of it is: a retry decided after the workspace's deletion retired the process would run steps
        // in a workspace nobody can see into, after its deletion's pass over unfinished instances.
        if (definitions.isRetired(instance.workspace(), instance.process())) {
            return Rejections.notFound(command.commandId(), "Expected to retry instance '%s', but process '%s' is retired: its workspace was deleted"
                    .formatted(instance.id(), instance.process()));
        }
        // An instance failed by the engine before any step ran has no step to start again.
        if (instance.error() == null || instance.error().stepId() == null || instance.step(instance.error().stepId()).isEmpty()) {
            return Rejections.invalidTransition(command.commandId(),
                    "Expected failed instance '%s' to name the step that failed, but it names none".formatted(instance.id()));
        }
        ProcessDefinition definition = definitions.version(instance.workspace(), instance.process(), instance.version()).orElseThrow();
        Transition transition = new Transition(instance);
        StepRun retried = decider.reopen(transition, definition, now);
        transition.retried(retried.id(), retried.attempt());
        return transition.decide(CommandReply.ok(command.commandId(), 200, transition.instance().view()));
    }
}
