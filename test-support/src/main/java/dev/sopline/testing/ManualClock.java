package dev.sopline.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * A clock that stands still until a test moves it: {@code java.time} offers only fixed and ticking clocks, and a
 * library for one class of a few lines would be one more dependency of every test.
 */
public final class ManualClock extends Clock {

    private volatile Instant now;

    public ManualClock(Instant start) {
        this.now = start;
    }

    /** Moves the clock on by {@code duration}. */
    public void advance(Duration duration) {
        now = now.plus(duration);
    }

    @Override
    public Instant instant() {
        return now;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }
}
