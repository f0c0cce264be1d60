package dev.sopline.engine.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class StreamThreadFailuresTest {

    private Instant now = Instant.parse("2026-03-02T08:00:00Z");
    private final Clock clock = new Clock() {
        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    };
    private final StreamThreadFailures failures = new StreamThreadFailures(clock, Duration.ofMinutes(5), 3);

    @Test
    void shouldReportFailingRepeatedlyWhenThreadsDieThreeTimesWithinTheWindow() {
        failures.record();
        now = now.plusSeconds(30);
        failures.record();
        assertThat(failures.failingRepeatedly()).isFalse();

        now = now.plusSeconds(30);
        failures.record();

        assertThat(failures.failingRepeatedly()).isTrue();
    }

    @Test
    void shouldRecoverWhenNoThreadDiedWithinTheWindow() {
        failures.record();
        failures.record();
        failures.record();

        now = now.plus(Duration.ofMinutes(6));

        assertThat(failures.failingRepeatedly()).isFalse();
    }
}
