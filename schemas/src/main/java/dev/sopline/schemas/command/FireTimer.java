package dev.sopline.schemas.command;

import java.time.Instant;

/**
 * A durable timer has come due. The engine's punctuation only writes this command to its own command topic; the
 * decision is made when the command is read back, with the record's timestamp as the time the timer fired, so
 * replaying the log after a crash decides exactly as before. Nobody waits for a reply.
 *
 * @param workspace workspace
 * @param kind what the timer does
 * @param target instance id, or process name for schedule timers
 * @param stepId step id for step timers; the process version for schedule timers
 * @param attempt the attempt the timer was set for
 * @param dueAt when it was due
 * @param kept true when the timer stayed in the engine's store as this command was written, to be removed when the
 *     command is read: such a command is written outside the engine's transaction and may be written more than once,
 *     and only the first one read while the timer is still stored fires it. Null in commands of engines that removed
 *     the timer as they wrote the command, in their transaction: those fire as read.
 */
public record FireTimer(String workspace, Kind kind, String target, String stepId, int attempt, Instant dueAt, Boolean kept)
        implements Command {

    public enum Kind {
        /** The backoff of a failed automated attempt has passed: offer the next attempt. */
        RETRY,
        /** The step's timeout has passed: fail the step and the instance. */
        STEP_TIMEOUT,
        /** A schedule trigger's cron fires: start an instance. */
        SCHEDULE
    }

    /** Whether the timer waits in the store for this command (see {@code kept}). */
    public boolean timerKept() {
        return Boolean.TRUE.equals(kept);
    }

    @Override
    public String commandId() {
        return null;
    }

    /** The partition that set the timer: the instance's, or the process's for a schedule. */
    @Override
    public String key() {
        return kind == Kind.SCHEDULE ? InstanceKeys.processKey(workspace, target) : target;
    }
}
