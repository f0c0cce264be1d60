package dev.sopline.benchmark;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Keeps a closed loop running, unmeasured, until the engine's JIT compilers have settled: until they used less than
 * {@code coreShare} of a core over one {@code window}, or for {@code limit} at most. A case measured while an engine's
 * compilers still take half a core measures its warm-up more than the engine: on a slow 2-core host, after the 60 s
 * warm-up at C=64, the platform's compilers took 41 to 50% of a core while it was measured at C=64, LittleHorse's 11%,
 * and both 73% at C=1, whose code paths the warm-up at C=64 had not made hot. Each case at each C is settled by the
 * same rule for both engines, and the report says how long each took, so a slower warm-up is shown, not hidden.
 */
record JitSettling(double coreShare, Duration window, Duration limit) {

    /** Off with a share or a limit of 0 ({@code --settle-jit-below-pct=0}): each case waits for nothing more than its ramp. */
    boolean enabled() {
        return coreShare > 0 && !limit.isNegative() && !limit.isZero();
    }

    /** How the wait passes a window: the thread's sleep, or a test's clock moved on. */
    interface Sleeper {
        void sleep(Duration duration) throws InterruptedException;
    }

    /**
     * @param compilersCpu the engine's JIT compiler threads' CPU time so far; null where it cannot be read (no
     *     {@code /proc}), and then the case waits for nothing
     * @return {@code settle_s} waited, {@code settled} whether the compilers fell below the share within the limit, and
     *     {@code last_window_jit_pct_of_a_core} over the last {@code window_s}; empty when off or unreadable
     */
    Map<String, Object> await(Supplier<Duration> compilersCpu) throws InterruptedException {
        return await(compilersCpu, System::nanoTime, duration -> Thread.sleep(duration.toMillis()));
    }

    Map<String, Object> await(Supplier<Duration> compilersCpu, LongSupplier nanoClock, Sleeper sleeper) throws InterruptedException {
        Map<String, Object> report = new LinkedHashMap<>();
        Duration before = compilersCpu.get();
        if (!enabled() || before == null) {
            return report;
        }
        long start = nanoClock.getAsLong();
        long windowStart = start;
        double share;
        boolean settled;
        do {
            sleeper.sleep(window);
            long now = nanoClock.getAsLong();
            Duration used = compilersCpu.get();
            if (used == null) {
                return new LinkedHashMap<>();
            }
            share = used.minus(before).toNanos() / (double) Math.max(1, now - windowStart);
            settled = share < coreShare;
            before = used;
            windowStart = now;
        } while (!settled && windowStart - start < limit.toNanos());
        report.put("settle_s", Benchmark.round((windowStart - start) / 1e9));
        report.put("settled", settled);
        report.put("last_window_jit_pct_of_a_core", Benchmark.round(100 * share));
        report.put("window_s", window.toSeconds());
        return report;
    }

    /** The JIT compiler threads' group of {@link PlatformProcess#jvmThreadsCpu(long)} for a JVM, or null without {@code /proc}. */
    static Supplier<Duration> compilersOf(long pid) {
        return () -> {
            Map<String, Duration> groups = PlatformProcess.jvmThreadsCpu(pid);
            return groups.isEmpty() ? null : groups.getOrDefault(PlatformProcess.JIT, Duration.ZERO);
        };
    }
}
