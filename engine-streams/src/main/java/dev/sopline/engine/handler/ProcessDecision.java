package dev.sopline.engine.handler;

import dev.sopline.engine.api.view.ProcessVersions;
import dev.sopline.engine.state.Timer;
import dev.sopline.schemas.command.Command;
import dev.sopline.schemas.command.CommandReply;
import java.util.List;
import java.util.Optional;

/**
 * What a registration or a schedule fire leads to.
 *
 * @param newState the one new version to store and publish to every engine replica, as its own record
 * @param reply the answer to the registration, if anyone waits
 * @param timers schedule timers to set
 * @param followUps instances to start
 */
public record ProcessDecision(Optional<ProcessVersions> newState, Optional<CommandReply> reply, List<Timer> timers, List<Command> followUps) {

    static ProcessDecision reply(CommandReply reply) {
        return new ProcessDecision(Optional.empty(), Optional.of(reply), List.of(), List.of());
    }

    static ProcessDecision nothing() {
        return new ProcessDecision(Optional.empty(), Optional.empty(), List.of(), List.of());
    }
}
