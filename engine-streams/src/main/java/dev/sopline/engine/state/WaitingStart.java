package dev.sopline.engine.state;

import dev.sopline.schemas.command.Command;
import java.time.Instant;

/**
 * A start command held until this replica holds the process version it names.
 *
 * @param command the command as received: a start, or an idempotent wrapper around one
 * @param receivedAt when the engine first read it; the wait is counted from here
 */
public record WaitingStart(Command command, Instant receivedAt) {

    /** Store key: arrival order, then the instance and the command, so two starts never share a key. */
    public String storeKey() {
        return receivedAt.toEpochMilli() + "|" + command.key() + "|" + command.commandId();
    }
}
