package dev.sopline.engine.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Timer keys are on disk and ordered by due time: they stay the text the first release wrote. */
class TimerKeysTest {

    @Test
    void shouldKeepTheKeysOfTheFirstFormat() {
        Random random = new Random(7);
        long[] edges = {0L, 1L, 999_999_999_999_999L, 1_000_000_000_000_000L, Long.MAX_VALUE, -1L, -123_456L, 1_772_438_400_123L};
        for (int run = 0; run < 10_000; run++) {
            long millis = run < edges.length ? edges[run] : random.nextLong() >> random.nextInt(64);
            Instant due = Instant.ofEpochMilli(millis);
            Timer timer = new Timer(due, Timer.Kind.values()[run % Timer.Kind.values().length], "ws", "01JA" + run,
                    run % 3 == 0 ? null : "step", run % 5);

            assertThat(timer.storeKey()).isEqualTo("%015d|%s|%s|%s|%s|%d".formatted(millis, timer.kind(), "ws", "01JA" + run,
                    timer.stepId(), run % 5));
            assertThat(Timer.upperBoundKey(due)).isEqualTo("%015d|~".formatted(millis));
        }
    }
}
