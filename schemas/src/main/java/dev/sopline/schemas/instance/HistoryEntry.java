package dev.sopline.schemas.instance;

import dev.sopline.schemas.command.Actor;
import java.time.Instant;
import java.util.Map;

/**
 * One line of an instance's history ({@code GET /sop/:name/:id/history}): a state change of the instance or of one
 * step, or a step's new attempt, with who caused it.
 *
 * @param seq the entry's place in the instance's history, from 1; the page cursor, not shown on the wire
 * @param at when it happened (the time of the command that caused it)
 * @param kind {@code instance} or {@code step}
 * @param stepId the step, for {@code step} entries
 * @param from the state before; null for the instance's creation
 * @param to the state after
 * @param attempt the step's attempt, for {@code step} entries
 * @param by who caused it
 * @param detail what else an auditor needs: {@code error}, {@code decision}, {@code proposal}; null when nothing
 */
public record HistoryEntry(long seq, Instant at, String kind, String stepId, String from, String to, Integer attempt, Actor by,
                           Map<String, Object> detail) {

    public static final String INSTANCE = "instance";
    public static final String STEP = "step";

    public HistoryEntry numbered(long number) {
        return new HistoryEntry(number, at, kind, stepId, from, to, attempt, by, detail);
    }
}
