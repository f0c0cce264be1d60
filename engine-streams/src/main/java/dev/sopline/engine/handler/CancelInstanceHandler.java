package dev.sopline.engine.handler;

import dev.sopline.engine.decision.Decision;
import dev.sopline.engine.decision.InstanceDecider;
import dev.sopline.engine.decision.Transition;
import dev.sopline.engine.state.Instance;
import dev.sopline.schemas.command.CancelInstance;
import dev.sopline.schemas.command.CommandReply;
import java.time.Instant;
import java.util.Optional;

final class CancelInstanceHandler implements CommandHandler<CancelInstance> {

    private final InstanceDecider decider;

    CancelInstanceHandler(InstanceDecider decider) {
        this.decider = decider;
    }

    @Override
    public Decision decide(CancelInstance command, Optional<Instance> found, Instant now) {
        if (found.isEmpty() || !found.get().process().equals(command.process())) {
            return Rejections.instanceNotFound(command.commandId(), command.process(), command.instanceId());
        }
        Instance instance = found.get();
        if (instance.isTerminal()) {
            return Rejections.invalidTransition(command.commandId(),
                    "Expected to cancel instance '%s', but it is already %s".formatted(instance.id(), instance.state()));
        }
        Transition transition = new Transition(instance);
        decider.cancel(transition, now);
        return transition.decide(CommandReply.ok(command.commandId(), 200, transition.instance().view()));
    }
}
