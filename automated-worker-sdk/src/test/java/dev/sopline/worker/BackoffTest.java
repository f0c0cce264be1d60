package dev.sopline.worker;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Waits between tries: jittered so that workers turned away together do not return together, and bounded. */
class BackoffTest {

    @Test
    void shouldWaitARandomShareOfACeilingThatDoublesUpToTheCap() {
        Backoff backoff = new Backoff(Duration.ofMillis(250), Duration.ofSeconds(2), bound -> bound);

        assertThat(IntStream.range(0, 6).mapToObj(i -> backoff.next().toMillis()))
                .containsExactly(250L, 500L, 1000L, 2000L, 2000L, 2000L);
        backoff.reset();
        assertThat(backoff.next()).isEqualTo(Duration.ofMillis(250));
    }

    @Test
    void shouldSpreadTheWaitsOfWorkersTurnedAwayTogether() {
        Set<Duration> firstWaits = new HashSet<>();
        for (int worker = 0; worker < 50; worker++) {
            Duration wait = new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(30)).next();
            assertThat(wait).isBetween(Duration.ZERO, Duration.ofSeconds(1));
            firstWaits.add(wait);
        }
        assertThat(firstWaits).as("full jitter: not all the same wait").hasSizeGreaterThan(10);
    }

    @Test
    void shouldHonourRetryAfterUpToAMinute() {
        assertThat(Backoff.retryAfter(Optional.of("3"))).isBetween(Duration.ofSeconds(3), Duration.ofSeconds(4));
        assertThat(Backoff.retryAfter(Optional.of("3600"))).as("an hour asked, a minute waited")
                .isBetween(Backoff.MAX_RETRY_AFTER, Backoff.MAX_RETRY_AFTER.plusSeconds(1));
        assertThat(Backoff.retryAfter(Optional.empty())).isBetween(Duration.ofSeconds(1), Duration.ofSeconds(2));
        assertThat(Backoff.retryAfter(Optional.of("Wed, 21 Oct 2026 07:28:00 GMT"))).isBetween(Duration.ofSeconds(1), Duration.ofSeconds(2));
    }
}
