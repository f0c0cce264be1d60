package dev.sopline.schemas.definition;

import java.time.Duration;

/**
 * Retry policy of an automated step: attempt {@code n} (1-based) that fails is retried after
 * {@code initialBackoff * multiplier^(n-1)}, until {@code maxAttempts} attempts have failed.
 *
 * @param maxAttempts total attempts, at least 1
 * @param initialBackoff duration text of the first backoff
 * @param multiplier growth factor between backoffs, at least 1
 */
public record RetryPolicy(int maxAttempts, String initialBackoff, double multiplier) {

    public static final RetryPolicy DEFAULT = new RetryPolicy(3, "1s", 2.0);
    /** The most attempts a file may ask for. */
    public static final int MAX_ATTEMPTS = 100;
    /** The largest growth factor a file may ask for. */
    public static final double MAX_MULTIPLIER = 10;

    /** Delay before the attempt that follows the failed attempt {@code failedAttempt}. */
    public Duration backoffAfter(int failedAttempt) {
        Duration initial = Durations.parse(initialBackoff).orElse(Duration.ofSeconds(1));
        double factor = Math.pow(multiplier, Math.max(0, failedAttempt - 1));
        return Duration.ofMillis(Math.round(initial.toMillis() * factor));
    }
}
