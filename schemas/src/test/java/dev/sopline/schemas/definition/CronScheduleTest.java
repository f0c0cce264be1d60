package dev.sopline.schemas.definition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class CronScheduleTest {

    private static final Instant MONDAY_0830_UTC = Instant.parse("2026-01-05T08:30:00Z");

    @Test
    void shouldFireInTheScheduleZoneWhenTimezoneIsGiven() {
        // 09:00 in Paris is 08:00 UTC in winter, so the next weekday fire after Monday 08:30 UTC is Tuesday
        CronSchedule schedule = CronSchedule.parse("0 9 * * 1-5", "Europe/Paris");
        assertThat(schedule.nextAfter(MONDAY_0830_UTC)).contains(Instant.parse("2026-01-06T08:00:00Z"));
        assertThat(CronSchedule.parse("0 9 * * 1-5", null).nextAfter(MONDAY_0830_UTC)).contains(Instant.parse("2026-01-05T09:00:00Z"));
    }

    @Test
    void shouldFollowDaylightSavingWhenZoneChangesOffset() {
        CronSchedule schedule = CronSchedule.parse("0 9 * * *", "Europe/Paris");
        assertThat(schedule.nextAfter(Instant.parse("2026-07-01T10:00:00Z"))).contains(Instant.parse("2026-07-02T07:00:00Z"));
    }

    @Test
    void shouldExpandEveryMacroWhenUsed() {
        assertThat(CronSchedule.parse("@hourly", "UTC").nextAfter(MONDAY_0830_UTC)).contains(Instant.parse("2026-01-05T09:00:00Z"));
        assertThat(CronSchedule.parse("@daily", "UTC").nextAfter(MONDAY_0830_UTC)).contains(Instant.parse("2026-01-06T00:00:00Z"));
        assertThat(CronSchedule.parse("@midnight", "UTC").nextAfter(MONDAY_0830_UTC)).contains(Instant.parse("2026-01-06T00:00:00Z"));
        assertThat(CronSchedule.parse("@weekly", "UTC").nextAfter(MONDAY_0830_UTC)).contains(Instant.parse("2026-01-11T00:00:00Z"));
        assertThat(CronSchedule.parse("@monthly", "UTC").nextAfter(MONDAY_0830_UTC)).contains(Instant.parse("2026-02-01T00:00:00Z"));
        assertThat(CronSchedule.parse("@yearly", "UTC").nextAfter(MONDAY_0830_UTC)).contains(Instant.parse("2027-01-01T00:00:00Z"));
        assertThat(CronSchedule.parse("@annually", "UTC").nextAfter(MONDAY_0830_UTC)).contains(Instant.parse("2027-01-01T00:00:00Z"));
    }

    @Test
    void shouldFireStrictlyAfterTheGivenInstant() {
        assertThat(CronSchedule.parse("@hourly", "UTC").nextAfter(Instant.parse("2026-01-05T09:00:00Z")))
                .contains(Instant.parse("2026-01-05T10:00:00Z"));
    }

    @Test
    void shouldReportProblemWhenExpressionIsInvalid() {
        for (String bad : List.of("0 0 9 * * 1", "61 * * * *", "garbage", "* * *", "", "@sometimes")) {
            assertThat(CronSchedule.cronProblem(bad)).as(bad).isPresent();
            assertThatThrownBy(() -> CronSchedule.parse(bad, "UTC")).as(bad).isInstanceOf(IllegalArgumentException.class);
        }
        assertThat(CronSchedule.cronProblem("*/15 8-18 * * MON-FRI")).isEmpty();
    }

    @Test
    void shouldReportProblemWhenZoneIsUnknown() {
        assertThat(CronSchedule.timezoneProblem("Mars/Olympus")).isPresent();
        assertThat(CronSchedule.timezoneProblem("America/New_York")).isEmpty();
        assertThat(CronSchedule.timezoneProblem(null)).isEmpty();
        assertThatThrownBy(() -> CronSchedule.parse("@daily", "Nowhere/City")).isInstanceOf(IllegalArgumentException.class);
    }
}
