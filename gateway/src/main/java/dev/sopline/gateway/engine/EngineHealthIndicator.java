package dev.sopline.gateway.engine;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.stereotype.Component;

/**
 * UP only when the gateway can serve reads (CONTRACT section 1): the engine in its JVM has restored its stores, or
 * at least one engine replica it reads through answers.
 */
@Component("engine")
public class EngineHealthIndicator implements HealthIndicator {

    private final EngineAccess engine;

    public EngineHealthIndicator(EngineAccess engine) {
        this.engine = engine;
    }

    @Override
    public Health health() {
        return engine.isReady() ? Health.up().build() : Health.down().build();
    }
}
