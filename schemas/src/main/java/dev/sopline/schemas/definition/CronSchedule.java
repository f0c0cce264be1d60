package dev.sopline.schemas.definition;

import com.cronutils.model.Cron;
import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.zone.ZoneOffsetTransition;
import java.util.Map;
import java.util.Optional;

/**
 * A schedule trigger's cron: standard 5-field Unix cron read by cron-utils, plus the usual macros, evaluated in an
 * IANA time zone, daylight-saving changes included (see {@link #nextAfter}).
 */
public final class CronSchedule {

    private static final CronParser PARSER = new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.UNIX));
    private static final Map<String, String> MACROS = Map.of(
            "@yearly", "0 0 1 1 *",
            "@annually", "0 0 1 1 *",
            "@monthly", "0 0 1 * *",
            "@weekly", "0 0 * * 0",
            "@daily", "0 0 * * *",
            "@midnight", "0 0 * * *",
            "@hourly", "0 * * * *");

    /** Local fire times looked at for one in a gap: the gap is at most a few hours, so the first few suffice. */
    private static final int MAX_GAP_CANDIDATES = 8;

    private final String expression;
    private final ZoneId zone;
    private final ExecutionTime executionTime;

    private CronSchedule(String expression, ZoneId zone, ExecutionTime executionTime) {
        this.expression = expression;
        this.zone = zone;
        this.executionTime = executionTime;
    }

    /**
     * @param cron 5-field expression or macro
     * @param timezone IANA zone id; UTC when null
     * @throws IllegalArgumentException when either cannot be read
     */
    public static CronSchedule parse(String cron, String timezone) {
        cronProblem(cron).ifPresent(problem -> {
            throw new IllegalArgumentException(problem);
        });
        timezoneProblem(timezone).ifPresent(problem -> {
            throw new IllegalArgumentException(problem);
        });
        Cron parsed = PARSER.parse(expand(cron));
        return new CronSchedule(cron, timezone == null ? ZoneId.of("UTC") : ZoneId.of(timezone), ExecutionTime.forCron(parsed));
    }

    /** Why the expression cannot be read, or empty when it can. */
    public static Optional<String> cronProblem(String cron) {
        if (cron == null || cron.isBlank()) {
            return Optional.of("Expected a cron expression, but it is empty");
        }
        String expanded = expand(cron);
        if (expanded.trim().split("\\s+").length != 5) {
            return Optional.of("Expected 5 cron fields (minute hour day-of-month month day-of-week) or a macro such as @daily, but got '%s'"
                    .formatted(cron));
        }
        try {
            Cron parsed = PARSER.parse(expanded).validate();
            // A date no calendar has (30 February) reads as a valid cron and would never fire: the schedule would be
            // registered, and nothing would ever start.
            if (ExecutionTime.forCron(parsed).nextExecution(ZonedDateTime.now(ZoneOffset.UTC)).isEmpty()) {
                return Optional.of("Expected a cron expression that fires, but '%s' names no date that exists".formatted(cron));
            }
            return Optional.empty();
        } catch (IllegalArgumentException e) {
            return Optional.of("Expected a valid cron expression, but '%s': %s".formatted(cron, e.getMessage()));
        }
    }

    /** Why the zone cannot be used, or empty when it can (null means UTC). */
    public static Optional<String> timezoneProblem(String timezone) {
        if (timezone == null) {
            return Optional.empty();
        }
        try {
            ZoneId.of(timezone);
            return Optional.empty();
        } catch (DateTimeException e) {
            return Optional.of("Expected an IANA time zone such as Europe/Paris, but got '%s'".formatted(timezone));
        }
    }

    /**
     * The first fire strictly after {@code instant}. A fire whose wall-clock time does not exist that day, because the
     * clocks sprang forward over it ({@code 30 2 * * *} in New York on the second Sunday of March), fires at that time
     * moved on by the gap (03:30), as {@code java.time} places a local time in a gap: cron-utils alone would skip the
     * day, and a daily or weekly run would be lost. Fires after a fall-back are cron-utils' own: a fire whose time
     * repeats fires once, an hourly one in both hours.
     */
    public Optional<Instant> nextAfter(Instant instant) {
        Optional<Instant> next = executionTime.nextExecution(instant.atZone(zone)).map(ZonedDateTime::toInstant);
        return skippedBySpringForward(instant, next).or(() -> next);
    }

    /** The earliest fire before {@code next} whose local time fell in a gap, moved past the gap. */
    private Optional<Instant> skippedBySpringForward(Instant after, Optional<Instant> next) {
        // The schedule read on the local clock, as if it never changed: UTC has no gaps.
        LocalDateTime local = LocalDateTime.ofInstant(after, zone);
        ZoneOffsetTransition last = zone.getRules().previousTransition(after.plusNanos(1));
        if (last != null && last.isGap() && after.isBefore(last.getInstant().plus(last.getDuration()))) {
            // Just after a gap, where its fires land: those after the one just fired are still due (02:00 moved to
            // 03:00 fired, 02:30 moved to 03:30 not yet), so the gap's times are read again.
            local = last.getDateTimeBefore().minusNanos(1);
        }
        for (int candidates = 0; candidates < MAX_GAP_CANDIDATES; candidates++) {
            Optional<LocalDateTime> onClock = executionTime.nextExecution(local.atZone(ZoneOffset.UTC)).map(ZonedDateTime::toLocalDateTime);
            if (onClock.isEmpty()) {
                return Optional.empty();
            }
            local = onClock.get();
            Instant at = ZonedDateTime.ofLocal(local, zone, null).toInstant();
            if (next.isPresent() && !at.isBefore(next.get())) {
                return Optional.empty();
            }
            if (at.isAfter(after) && zone.getRules().getValidOffsets(local).isEmpty()) {
                return Optional.of(at);
            }
        }
        return Optional.empty();
    }

    public String expression() {
        return expression;
    }

    public ZoneId zone() {
        return zone;
    }

    private static String expand(String cron) {
        String trimmed = cron.trim();
        return MACROS.getOrDefault(trimmed.toLowerCase(java.util.Locale.ROOT), trimmed);
    }
}
