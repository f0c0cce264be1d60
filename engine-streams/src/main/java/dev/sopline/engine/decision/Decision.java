package dev.sopline.engine.decision;

import dev.sopline.engine.state.Instance;
import dev.sopline.engine.state.Timer;
import dev.sopline.schemas.command.Command;
import dev.sopline.schemas.command.CommandReply;
import java.util.List;
import java.util.Optional;

/**
 * What a command or timer leads to: the new state to write (once), the events to publish in order, the reply the
 * sender waits for, timers to set, and commands to send on (a schedule starting an instance on another partition).
 *
 * @param newState the instance to store; empty when nothing changes
 * @param events {@code InstanceStateChanged}, {@code StepStateChanged} and {@code StepReady} records, in order
 * @param reply the answer to the command, if anyone waits for one
 * @param timers timers to set
 * @param followUps commands to publish to the command topic
 */
public record Decision(
        Optional<Instance> newState,
        List<Object> events,
        Optional<CommandReply> reply,
        List<Timer> timers,
        List<Command> followUps) {

    /** Nothing changes; the sender gets this answer (a refusal, or the first answer to a repeated command). */
    public static Decision reject(CommandReply reply) {
        return answer(reply);
    }

    /** Nothing changes; the sender gets this answer. */
    public static Decision answer(CommandReply reply) {
        return new Decision(Optional.empty(), List.of(), Optional.of(reply), List.of(), List.of());
    }

    /** Nothing changes and nobody is told: a late or duplicate worker result, a timer for an attempt that moved on. */
    public static Decision ignore() {
        return new Decision(Optional.empty(), List.of(), Optional.empty(), List.of(), List.of());
    }
}
