package dev.sopline.engine.handler;

import dev.sopline.engine.decision.Decision;
import dev.sopline.engine.decision.InstanceTooLarge;
import dev.sopline.engine.state.Instance;
import dev.sopline.schemas.command.InstanceCommand;
import java.time.Instant;
import java.util.Optional;

/**
 * Decides one kind of instance command: checks its preconditions against the current state and returns a
 * {@link Decision}. Handlers never see Kafka; {@code now} is the record's time, never the clock.
 *
 * @param <C> the command kind
 */
@FunctionalInterface
public interface CommandHandler<C extends InstanceCommand> {

    /**
     * @param command the command
     * @param instance the instance it names, empty when none is stored under its key
     * @param now the command record's timestamp
     * @return what changes, what is published and what the sender is told
     */
    Decision decide(C command, Optional<Instance> instance, Instant now);

    /**
     * The command would pass the instance's data budget: by default it is refused with 413 and nothing changes.
     *
     * @param tooLarge what would pass the budget, in words
     */
    default Decision tooLarge(C command, Optional<Instance> instance, InstanceTooLarge tooLarge, Instant now) {
        return Rejections.payloadTooLarge(command.commandId(), tooLarge.getMessage());
    }
}
