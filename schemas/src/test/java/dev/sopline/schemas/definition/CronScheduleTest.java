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
    void shouldFireADailyRunTheClocksSprangOverAnHourLaterThatDay() {
        // New York sprang forward at 02:00 on 2024-03-10: 02:30 did not exist that day
        CronSchedule daily = CronSchedule.parse("30 2 * * *", "America/New_York");
        Instant springForwardDay = daily.nextAfter(Instant.parse("2024-03-09T07:30:00Z")).orElseThrow(); // 02:30 EST on the 9th

        assertThat(springForwardDay).isEqualTo(Instant.parse("2024-03-10T07:30:00Z")); // 03:30 EDT
        assertThat(daily.nextAfter(springForwardDay)).contains(Instant.parse("2024-03-11T06:30:00Z")); // 02:30 EDT
    }

    @Test
    void shouldFireEveryRunTheClocksSprangOverInOrder() {
        // New York sprang forward at 02:00 on 2026-03-08: 02:00 and 02:30 both did not exist
        CronSchedule twice = CronSchedule.parse("0,30 2 * * *", "America/New_York");
        Instant first = twice.nextAfter(Instant.parse("2026-03-08T06:00:00Z")).orElseThrow(); // 01:00 EST
        Instant second = twice.nextAfter(first).orElseThrow();

        assertThat(first).isEqualTo(Instant.parse("2026-03-08T07:00:00Z")); // 03:00 EDT
        assertThat(second).isEqualTo(Instant.parse("2026-03-08T07:30:00Z")); // 03:30 EDT
        assertThat(twice.nextAfter(second)).contains(Instant.parse("2026-03-09T06:00:00Z")); // 02:00 EDT the next day
        // A two-hour gap: Troll in Antarctica goes from UTC to UTC+2 at 01:00 UTC on the last Sunday of March
        CronSchedule troll = CronSchedule.parse("30 1,2 * * *", "Antarctica/Troll");
        Instant moved = troll.nextAfter(Instant.parse("2026-03-29T00:00:00Z")).orElseThrow();
        assertThat(moved).isEqualTo(Instant.parse("2026-03-29T01:30:00Z")); // 01:30 moved by two hours: 03:30 local
        assertThat(troll.nextAfter(moved)).contains(Instant.parse("2026-03-29T02:30:00Z")); // 02:30 moved: 04:30 local
    }

    @Test
    void shouldFireAWeeklyRunTheClocksSprangOver() {
        // Paris sprang forward at 02:00 on Sunday 2024-03-31
        CronSchedule weekly = CronSchedule.parse("0 2 * * 0", "Europe/Paris");

        assertThat(weekly.nextAfter(Instant.parse("2024-03-24T01:00:00Z"))).contains(Instant.parse("2024-03-31T01:00:00Z")); // 03:00 CEST
    }

    @Test
    void shouldNotFireTwiceOrBunchUpAroundAGap() {
        CronSchedule quarterly = CronSchedule.parse("*/15 * * * *", "America/New_York");
        Instant at = Instant.parse("2024-03-10T06:30:00Z"); // 01:30 EST
        List<Instant> fires = new java.util.ArrayList<>();
        for (int fire = 0; fire < 4; fire++) {
            at = quarterly.nextAfter(at).orElseThrow();
            fires.add(at);
        }

        // 01:45 EST, then 03:00, 03:15, 03:30 EDT: the gap's quarters are not made up
        assertThat(fires).containsExactly(Instant.parse("2024-03-10T06:45:00Z"), Instant.parse("2024-03-10T07:00:00Z"),
                Instant.parse("2024-03-10T07:15:00Z"), Instant.parse("2024-03-10T07:30:00Z"));
    }

    @Test
    void shouldFireOnceWhenTheClocksFallBackOverTheFireTime() {
        // New York fell back at 02:00 EDT on 2024-11-03: 01:30 came twice
        CronSchedule daily = CronSchedule.parse("30 1 * * *", "America/New_York");
        Instant first = daily.nextAfter(Instant.parse("2024-11-03T04:00:00Z")).orElseThrow(); // from 00:00 EDT

        assertThat(first).isEqualTo(Instant.parse("2024-11-03T05:30:00Z")); // 01:30 EDT
        assertThat(daily.nextAfter(first)).contains(Instant.parse("2024-11-04T06:30:00Z")); // 01:30 EST the next day
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
        assertThat(CronSchedule.cronProblem("0 0 30 2 *")).as("30 February").hasValueSatisfying(problem -> assertThat(problem).contains("no date that exists"));
        assertThat(CronSchedule.cronProblem("0 0 31 4 *")).as("31 April").isPresent();
        assertThat(CronSchedule.cronProblem("0 0 29 2 *")).as("29 February, in leap years").isEmpty();
    }

    @Test
    void shouldReportProblemWhenZoneIsUnknown() {
        assertThat(CronSchedule.timezoneProblem("Mars/Olympus")).isPresent();
        assertThat(CronSchedule.timezoneProblem("America/New_York")).isEmpty();
        assertThat(CronSchedule.timezoneProblem(null)).isEmpty();
        assertThatThrownBy(() -> CronSchedule.parse("@daily", "Nowhere/City")).isInstanceOf(IllegalArgumentException.class);
    }
}
