package dev.sopline.judgment;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.LongSupplier;
import org.slf4j.Logger;

/**
 * Warnings a failing model would otherwise repeat for every step: at most one line per kind in each minute, the next
 * one saying how many were left out. A provider that is down for an hour writes sixty lines, not one per step.
 */
final class ThrottledWarnings {

    static final Duration PERIOD = Duration.ofMinutes(1);
    /** Kinds are a few exception names and reasons; past this many the oldest counts are forgotten, not the memory. */
    private static final int MOST_KINDS = 64;

    private final Logger log;
    private final LongSupplier nanoTime;
    private final Map<String, Seen> kinds = new HashMap<>();

    private static final class Seen {
        private final long loggedAt;
        private int leftOut;

        private Seen(long loggedAt) {
            this.loggedAt = loggedAt;
        }
    }

    ThrottledWarnings(Logger log) {
        this(log, System::nanoTime);
    }

    ThrottledWarnings(Logger log, LongSupplier nanoTime) {
        this.log = log;
        this.nanoTime = nanoTime;
    }

    /** Logs {@code message} at WARN unless a warning of this kind was logged less than a minute ago. */
    void warn(String kind, String message) {
        int leftOut;
        synchronized (kinds) {
            long now = nanoTime.getAsLong();
            Seen seen = kinds.get(kind);
            if (seen != null && now - seen.loggedAt < PERIOD.toNanos()) {
                seen.leftOut++;
                return;
            }
            if (seen == null && kinds.size() >= MOST_KINDS) {
                kinds.clear();
            }
            leftOut = seen == null ? 0 : seen.leftOut;
            kinds.put(kind, new Seen(now));
        }
        if (leftOut == 0) {
            log.warn("{}", message);
        } else {
            log.warn("{} ({} more like this in the last minute were not logged)", message, leftOut);
        }
    }
}
