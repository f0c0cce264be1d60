package dev.sopline.engine.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sopline.testing.ManualClock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class StreamThreadFailuresTest {

    private final ManualClock clock = new ManualClock(Instant.parse("2026-03-02T08:00:00Z"));
    private final StreamThreadFailures failures = new StreamThreadFailures(clock, Duration.ofMinutes(5), 3);

    @Test
    void shouldReportFailingRepeatedlyWhenThreadsDieThreeTimesWithinTheWindow() {
        failures.record();
        clock.advance(Duration.ofSeconds(30));
        failures.record();
        assertThat(failures.failingRepeatedly()).isFalse();

        clock.advance(Duration.ofSeconds(30));
        failures.record();

        assertThat(failures.failingRepeatedly()).isTrue();
    }

    @Test
    void shouldRecoverWhenNoThreadDiedWithinTheWindow() {
        failures.record();
        failures.record();
        failures.record();

        clock.advance(Duration.ofMinutes(6));

        assertThat(failures.failingRepeatedly()).isFalse();
    }
}
