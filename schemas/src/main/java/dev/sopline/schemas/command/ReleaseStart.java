package dev.sopline.schemas.command;

import java.time.Instant;

/**
 * A start the engine held because it named a process version the replica did not hold yet, written back to the
 * command topic by the engine once that version is there, or once the wait is over ({@code expired}). The start is
 * decided when this command is read, so its outcome comes from the log and a replay after a crash decides the same.
 *
 * @param start the start as first received: a start, or an idempotent wrapper around one
 * @param receivedAt the timestamp of the start's own record; the wait is counted from here
 * @param expired true when the wait is over without the version: the start is answered 404
 * @param kept true when the start stayed held as this command was written, to be let go when the command is read:
 *     such a command is written outside the engine's transaction and may be written more than once, and only the first
 *     one read while the start is still held decides it. Null in commands of engines that let the start go as they
 *     wrote the command, in their transaction: those are decided as read.
 */
public record ReleaseStart(InstanceCommand start, Instant receivedAt, boolean expired, Boolean kept) implements Command {

    /** Whether the start stays held until this command is read (see {@code kept}). */
    public boolean startKept() {
        return Boolean.TRUE.equals(kept);
    }

    @Override
    public String commandId() {
        return start.commandId();
    }

    @Override
    public String workspace() {
        return start.workspace();
    }

    @Override
    public String key() {
        return start.key();
    }
}
