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
 */
public record FireTimer(String workspace, Kind kind, String target, String stepId, int attempt, Instant dueAt) implements Command {

    public enum Kind {
        /** The backoff of a failed automated attempt has passed: offer the next attempt. */
        RETRY,
        /** The step's timeout has passed: fail the step and the instance. */
        STEP_TIMEOUT,
        /** A schedule trigger's cron fires: start an instance. */
        SCHEDULE
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
