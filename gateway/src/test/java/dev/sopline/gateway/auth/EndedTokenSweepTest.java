package dev.sopline.gateway.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The sweep runs on its own: first soon after start, then again and again, each time forgetting what ended more than
 * a day before it, and a sweep that fails does not stop the next. Its schedule is scaled down here from a minute and
 * an hour.
 */
class EndedTokenSweepTest {

    @Test
    void shouldSweepSoonAfterStartAndThenRepeatedlyEvenAfterAFailure() throws InterruptedException {
        BlockingQueue<Instant[]> sweeps = new LinkedBlockingQueue<>();
        EndedTokenSweep sweep = new EndedTokenSweep((cutoff, now) -> {
            sweeps.add(new Instant[] {cutoff, now});
            if (sweeps.size() == 1) {
                throw new IllegalStateException("the broker is away");
            }
            return 0;
        }, Duration.ofMillis(200), Duration.ofMillis(100));
        Instant started = Instant.now();

        sweep.start();
        try {
            List<Instant[]> seen = List.of(take(sweeps), take(sweeps), take(sweeps));

            assertThat(Duration.between(started, seen.get(0)[1])).as("the first sweep waits its delay after start")
                    .isGreaterThanOrEqualTo(Duration.ofMillis(190));
            assertThat(seen).allSatisfy(each -> assertThat(each[0]).isEqualTo(each[1].minus(Duration.ofDays(1))));
            assertThat(Duration.between(seen.get(1)[1], seen.get(2)[1])).isGreaterThanOrEqualTo(Duration.ofMillis(90));
        } finally {
            sweep.stop();
        }
        assertThat(sweep.isRunning()).isFalse();
    }

    @Test
    void shouldSweepAMinuteAfterStartAndThenHourly() {
        assertThat(EndedTokenSweep.FIRST_AFTER).isEqualTo(Duration.ofMinutes(1));
        assertThat(EndedTokenSweep.EVERY).isEqualTo(Duration.ofHours(1));
        assertThat(EndedTokenSweep.KEPT_AFTER_ENDING).isEqualTo(Duration.ofDays(1));
    }

    private static Instant[] take(BlockingQueue<Instant[]> sweeps) throws InterruptedException {
        Instant[] sweep = sweeps.poll(10, TimeUnit.SECONDS);
        assertThat(sweep).as("a sweep within 10 s").isNotNull();
        return sweep;
    }
}
