package dev.sopline.engine.state;

import dev.sopline.schemas.command.FireTimer;
import java.time.Instant;

/**
 * A durable timer: kept in the timers store of the partition that owns its instance (or process), so it survives
 * restarts and rebalances. When it is due, wall-clock punctuation writes a {@link FireTimer} command to the command
 * topic; the timer is removed, and what it does decided, when that command is read. A timer that fires for an attempt that
 * has moved on is ignored; a step's timers are removed when its attempt ends ({@link AttemptTimers}).
 *
 * @param dueAt when it fires
 * @param kind what it does
 * @param workspace workspace
 * @param target instance id, or process name for schedule timers
 * @param stepId step id, for step timers
 * @param attempt the attempt the timer was set for
 * @param format the stored record's format: 1 when absent (records written before formats were numbered), 2 since
 *     {@link Kind#FORGET_WINDOW_BUCKET} exists
 */
public record Timer(Instant dueAt, Kind kind, String workspace, String target, String stepId, int attempt, Integer format) {

    public static final int FORMAT = 2;

    public Timer {
        format = format == null ? 1 : format;
    }

    public Timer(Instant dueAt, Kind kind, String workspace, String target, String stepId, int attempt) {
        this(dueAt, kind, workspace, target, stepId, attempt, FORMAT);
    }

    public enum Kind {
        /** The backoff of a failed automated attempt has passed: offer the next attempt. */
        RETRY,
        /** The step's timeout has passed: fail the step and the instance. */
        STEP_TIMEOUT,
        /** A schedule trigger's cron fires: start an instance. */
        SCHEDULE,
        /** An idempotency key's 24 hours are over: forget its answer. */
        FORGET_IDEMPOTENCY,
        /** A metrics window bucket is older than the longest window: remove it ({@code WindowBuckets}). */
        FORGET_WINDOW_BUCKET;

        /** Kinds that only clean up a store at punctuation: decisions already ignore what they remove. */
        public boolean onlyCleansUp() {
            return this == FORGET_IDEMPOTENCY || this == FORGET_WINDOW_BUCKET;
        }
    }

    /**
     * The command that fires this timer, which stays stored until the command is read; not for the kinds that only
     * clean up a store ({@link Kind#onlyCleansUp}).
     */
    public FireTimer fireCommand() {
        return new FireTimer(workspace, FireTimer.Kind.valueOf(kind.name()), target, stepId, attempt, dueAt, true);
    }

    /** The same timer, due at {@code when} instead. */
    public Timer at(Instant when) {
        return new Timer(when, kind, workspace, target, stepId, attempt);
    }

    /** The timer a {@link FireTimer} command fires. */
    public static Timer firedBy(FireTimer fire) {
        return new Timer(fire.dueAt(), Kind.valueOf(fire.kind().name()), fire.workspace(), fire.target(), fire.stepId(), fire.attempt());
    }

    /** Store key: due time first, so a range scan up to "now" finds exactly the due timers in order. */
    public String storeKey() {
        return dueKeyPart(dueAt) + "|" + kind + "|" + workspace + "|" + target + "|" + stepId + "|" + attempt;
    }

    public static String upperBoundKey(Instant now) {
        return dueKeyPart(now) + "|~";
    }

    /**
     * The due time as {@code %015d} writes it, the keys on disk since the first release, without
     * {@code String.format}: a key is built for every timer written and at every punctuation.
     */
    private static String dueKeyPart(Instant dueAt) {
        long millis = dueAt.toEpochMilli();
        if (millis < 0) {
            return "%015d".formatted(millis);
        }
        String digits = Long.toString(millis);
        return digits.length() >= 15 ? digits : "0".repeat(15 - digits.length()) + digits;
    }
}
