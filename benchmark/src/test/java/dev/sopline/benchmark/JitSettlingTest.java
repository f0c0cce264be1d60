package dev.sopline.benchmark;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class JitSettlingTest {

    private static final Duration WINDOW = Duration.ofSeconds(10);

    private long nanos;
    private final List<Duration> slept = new ArrayList<>();

    @Test
    void waitsUntilTheCompilersUseLessThanTheShareOverOneWindow() throws InterruptedException {
        // 50%, then 30%, then 5% of a core over successive 10 s windows.
        Map<String, Object> report = settle(new JitSettling(0.10, WINDOW, Duration.ofSeconds(180)), compilers(0, 5_000, 8_000, 8_500));

        assertThat(report).containsEntry("settled", true).containsEntry("settle_s", 30.0)
                .containsEntry("last_window_jit_pct_of_a_core", 5.0).containsEntry("window_s", 10L);
        assertThat(slept).hasSize(3);
    }

    @Test
    void givesUpAtTheLimitAndSaysHowBusyTheCompilersStillWere() throws InterruptedException {
        Map<String, Object> report = settle(new JitSettling(0.10, WINDOW, Duration.ofSeconds(30)),
                compilers(0, 4_000, 8_000, 12_000, 16_000, 20_000));

        assertThat(report).containsEntry("settled", false).containsEntry("settle_s", 30.0)
                .containsEntry("last_window_jit_pct_of_a_core", 40.0);
        assertThat(slept).hasSize(3);
    }

    @Test
    void waitsForNothingWhenOffOrWhereTheCompilersCannotBeRead() throws InterruptedException {
        assertThat(settle(new JitSettling(0, WINDOW, Duration.ofSeconds(180)), compilers(0, 5_000))).isEmpty();
        assertThat(settle(new JitSettling(0.10, WINDOW, Duration.ZERO), compilers(0, 5_000))).isEmpty();
        assertThat(settle(new JitSettling(0.10, WINDOW, Duration.ofSeconds(180)), () -> null)).isEmpty();
        assertThat(slept).isEmpty();
    }

    private Map<String, Object> settle(JitSettling settling, Supplier<Duration> compilers) throws InterruptedException {
        return settling.await(compilers, () -> nanos, duration -> {
            slept.add(duration);
            nanos += duration.toNanos();
        });
    }

    /** The compilers' CPU so far, in milliseconds, at each read. */
    private static Supplier<Duration> compilers(long... millis) {
        Iterator<Long> reads = java.util.Arrays.stream(millis).boxed().iterator();
        return () -> Duration.ofMillis(reads.next());
    }
}
