package dev.sopline.worker;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.LongUnaryOperator;

/**
 * How long to wait before trying again. Exponential with full jitter (a random wait up to a ceiling that doubles
 * each time, up to a cap): workers turned away together, by a gateway restart or a broker outage, do not come back
 * together. A {@code Retry-After} is honoured up to {@link #MAX_RETRY_AFTER}, so a proxy's or a gateway's mistaken
 * hour-long value does not park a worker for an hour.
 */
final class Backoff {

    static final Duration MAX_RETRY_AFTER = Duration.ofSeconds(60);

    private final Duration first;
    private final Duration max;
    /** A random number from 0 to the bound, inclusive; replaced in tests. */
    private final LongUnaryOperator random;
    private Duration ceiling;

    Backoff(Duration first, Duration max) {
        this(first, max, bound -> ThreadLocalRandom.current().nextLong(bound + 1));
    }

    Backoff(Duration first, Duration max, LongUnaryOperator random) {
        this.first = first;
        this.max = max;
        this.random = random;
        this.ceiling = first;
    }

    /** The next wait: a random share of the ceiling, which then doubles. */
    Duration next() {
        Duration wait = Duration.ofMillis(random.applyAsLong(ceiling.toMillis()));
        Duration doubled = ceiling.multipliedBy(2);
        ceiling = doubled.compareTo(max) > 0 ? max : doubled;
        return wait;
    }

    /** After a success: the next failure waits little again. */
    void reset() {
        ceiling = first;
    }

    /**
     * The wait a {@code Retry-After} of whole seconds asks for (1 s when absent or not a number), at most
     * {@link #MAX_RETRY_AFTER}, plus up to a second so that the workers told the same second do not all return in it.
     */
    static Duration retryAfter(Optional<String> header) {
        long seconds = header.map(Backoff::seconds).orElse(1L);
        Duration asked = Duration.ofSeconds(Math.min(Math.max(1, seconds), MAX_RETRY_AFTER.toSeconds()));
        return asked.plusMillis(ThreadLocalRandom.current().nextLong(1000));
    }

    private static long seconds(String header) {
        try {
            return Long.parseLong(header.trim());
        } catch (NumberFormatException e) {
            return 1;
        }
    }
}
