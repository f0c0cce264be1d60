package dev.sopline.engine.runtime;

import dev.sopline.engine.processor.CommandMetrics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * Commands by type and outcome ({@code sop.engine.commands}) and the time each type takes to decide and apply
 * ({@code sop.engine.decision}), in Micrometer. The meters are looked up once per type and outcome and then kept, as
 * the stream thread reports every command.
 */
final class MicrometerCommandMetrics implements CommandMetrics {

    static final String COMMANDS = "sop.engine.commands";
    static final String DECISION = "sop.engine.decision";

    private final MeterRegistry registry;
    private final Map<String, Counter> counters = new ConcurrentHashMap<>();
    private final Map<String, Timer> timers = new ConcurrentHashMap<>();
    private final List<Meter> registered = new CopyOnWriteArrayList<>();

    MicrometerCommandMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void decided(String type, String outcome, long nanos) {
        counters.computeIfAbsent(type + '|' + outcome, key -> keep(Counter.builder(COMMANDS)
                .description("Commands the engine decided, by type and outcome")
                .tag("type", type).tag("outcome", outcome).register(registry))).increment();
        timers.computeIfAbsent(type, key -> keep(Timer.builder(DECISION)
                .description("Time to decide one command and apply its outcome to the stores")
                .tag("type", type).register(registry))).record(nanos, TimeUnit.NANOSECONDS);
    }

    private <M extends Meter> M keep(M meter) {
        registered.add(meter);
        return meter;
    }

    /** Removes this engine's meters, so an engine stopped in a JVM that goes on does not leave them behind. */
    void remove() {
        registered.forEach(registry::remove);
        registered.clear();
        counters.clear();
        timers.clear();
    }
}
