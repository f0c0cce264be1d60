package dev.sopline.worker;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** What a worker remembers about steps and runs: bounded, so that a long-lived worker's memory does not grow with them. */
class RecentKeysTest {

    private static final Instant NOW = Instant.parse("2026-11-29T07:00:00Z");

    @Test
    void shouldForgetTheOldestKeysBeyondItsCapacity() {
        RecentKeys runs = new RecentKeys(3);

        for (int run = 0; run < 1_000; run++) {
            assertThat(runs.add("team.run-" + run)).isTrue();
        }

        assertThat(runs.size()).isEqualTo(3);
        assertThat(runs.add("team.run-999")).as("recent: still known").isFalse();
        assertThat(runs.add("team.run-0")).as("oldest: forgotten, so warned about again").isTrue();
    }

    @Test
    void shouldForgetAKeyOnceItsTimeIsUp() {
        RecentKeys setAside = new RecentKeys(10);

        setAside.add("inst/pay/1", NOW, Duration.ofMinutes(5));

        assertThat(setAside.contains("inst/pay/1", NOW.plus(Duration.ofMinutes(4)))).isTrue();
        assertThat(setAside.contains("inst/pay/1", NOW.plus(Duration.ofMinutes(5)))).isFalse();
        assertThat(setAside.size()).isZero();
    }
}
