package dev.sopline.judgment;

import dev.sopline.worker.SopWorker;
import java.time.Duration;
import java.util.function.Supplier;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * UP only while the judgment worker takes steps: started, reached its broker, and its poll thread alive. That thread
 * ends for good on a Kafka error it cannot recover from, or when another member joins under its static member id
 * (fenced); then judgments wait for a restart, which health is there to ask for (CONTRACT section 8). A process that
 * embeds the worker registers one of these for it (the standalone's gateway, beside its own indicators).
 */
public final class JudgmentHealthIndicator implements HealthIndicator {

    private final Supplier<SopWorker> worker;

    /** {@code worker}: the running worker, or null before it is started and after it is stopped. */
    public JudgmentHealthIndicator(Supplier<SopWorker> worker) {
        this.worker = worker;
    }

    @Override
    public Health health() {
        SopWorker current = worker.get();
        if (current == null) {
            return Health.down().withDetail("judgment_worker", "not started").build();
        }
        if (!current.isRunning()) {
            return Health.down().withDetail("judgment_worker", "stopped; see its log for why").build();
        }
        if (!connected(current)) {
            return Health.down().withDetail("judgment_worker", "has not reached its broker yet").build();
        }
        return Health.up().build();
    }

    private static boolean connected(SopWorker worker) {
        try {
            return worker.awaitConnected(Duration.ZERO);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
