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

        assertThat(runs.size(NOW)).isEqualTo(3);
        assertThat(runs.add("team.run-999")).as("recent: still known").isFalse();
        assertThat(runs.add("team.run-0")).as("oldest: forgotten, so warned about again").isTrue();
    }

    @Test
    void shouldForgetAKeyOnceItsTimeIsUp() {
        RecentKeys setAside = new RecentKeys(10);

        setAside.add("inst/pay/1", NOW, Duration.ofMinutes(5));

        assertThat(setAside.contains("inst/pay/1", NOW.plus(Duration.ofMinutes(4)))).isTrue();
        assertThat(setAside.contains("inst/pay/1", NOW.plus(Duration.ofMinutes(5)))).isFalse();
        assertThat(setAside.size(NOW)).isZero();
    }

    @Test
    void shouldNotCountKeysWhoseTimeIsUpThoughNobodyAskedAboutThem() {
        RecentKeys setAside = new RecentKeys(10_000);
        for (int step = 0; step < 100; step++) {
            // Steps set aside and then resolved by other workers: never asked about again.
            setAside.add("inst-" + step + "/pay/1", NOW.plusSeconds(step), Duration.ofMinutes(5));
        }

        assertThat(setAside.size(NOW.plusSeconds(10))).isEqualTo(100);
        assertThat(setAside.size(NOW.plus(Duration.ofMinutes(5)).plusSeconds(49))).as("the first 50 have had their time").isEqualTo(50);
        assertThat(setAside.size(NOW.plus(Duration.ofMinutes(10)))).isZero();
    }
}
