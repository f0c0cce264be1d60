package dev.sopline.engine.runtime;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Remembers when the engine's stream threads died. A thread that dies is replaced; one that dies again and again
 * within a short window is failing on the same input (a record it cannot write, a store it cannot open) and the
 * engine is not making progress, however "running" Kafka Streams reports itself.
 */
final class StreamThreadFailures {

    static final Duration DEFAULT_WINDOW = Duration.ofMinutes(5);
    static final int DEFAULT_THRESHOLD = 3;

    private final Clock clock;
    private final Duration window;
    private final int threshold;
    private final Deque<Instant> failures = new ArrayDeque<>();

    StreamThreadFailures(Clock clock, Duration window, int threshold) {
        this.clock = clock;
        this.window = window;
        this.threshold = threshold;
    }

    StreamThreadFailures() {
        this(Clock.systemUTC(), DEFAULT_WINDOW, DEFAULT_THRESHOLD);
    }

    synchronized void record() {
        failures.addLast(clock.instant());
        forgetOld();
    }

    /** Whether threads died {@code threshold} times within the window up to now. */
    synchronized boolean failingRepeatedly() {
        forgetOld();
        return failures.size() >= threshold;
    }

    private void forgetOld() {
        Instant oldest = clock.instant().minus(window);
        while (!failures.isEmpty() && failures.peekFirst().isBefore(oldest)) {
            failures.removeFirst();
        }
    }
}
