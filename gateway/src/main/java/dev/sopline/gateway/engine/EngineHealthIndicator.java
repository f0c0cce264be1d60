package dev.sopline.gateway.engine;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.stereotype.Component;

/** UP only once the engine runs and its stores answer queries (CONTRACT section 1). */
@Component("engine")
public class EngineHealthIndicator implements HealthIndicator {

    private final EngineAccess engine;

    public EngineHealthIndicator(EngineAccess engine) {
        this.engine = engine;
    }

    @Override
    public Health health() {
        if (!engine.isReady()) {
            return Health.down().build();
        }
        try {
            engine.queries().processes("default");
            return Health.up().build();
        } catch (RuntimeException e) {
            return Health.down().build();
        }
    }
}
