package dev.sopline.engine.runtime;

import dev.sopline.engine.processor.CommandMetrics;
import dev.sopline.engine.query.EngineQueries;
import dev.sopline.engine.api.query.WorkspaceCounts;
import dev.sopline.schemas.definition.StepType;
import dev.sopline.schemas.instance.InstanceState;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;
import org.apache.kafka.streams.KafkaStreams;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine's metrics in Micrometer: Kafka Streams' own (Micrometer's {@link KafkaStreamsMetrics} binder), commands
 * by type and outcome and decision time ({@link MicrometerCommandMetrics}), and gauges of this replica's partitions:
 * instances by state ({@code sop.engine.instances}), pending steps by type ({@code sop.engine.steps.pending}), timers
 * due ({@code sop.engine.timers.due}), plus the worker groups' lag ({@link WorkerLag}). The gauges read the counters
 * the processor keeps, never the instances; what a store cannot answer now (a rebalance) reads as NaN.
 */
public final class EngineMetrics implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(EngineMetrics.class);

    /** Due timers are counted up to this many: a gauge must stay cheap even after long downtime. */
    static final long TIMERS_DUE_COUNTED = 100_000;
    private static final Duration COUNTS_KEPT = Duration.ofSeconds(1);

    private final MeterRegistry registry;
    private final MicrometerCommandMetrics commands;
    private final List<Meter> gauges = new ArrayList<>();
    private KafkaStreamsMetrics streamsMetrics;
    private WorkerLag workerLag;
    private volatile WorkspaceCounts lastCounts;
    private volatile long lastCountsAt;

    public EngineMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.commands = new MicrometerCommandMetrics(registry);
    }

    /** Where the processor reports each command. */
    public CommandMetrics commands() {
        return commands;
    }

    /** Binds the gauges and Kafka Streams' metrics once the engine's streams and stores exist. */
    void bind(KafkaStreams streams, EngineQueries queries, String bootstrapServers) {
        streamsMetrics = new KafkaStreamsMetrics(streams);
        streamsMetrics.bindTo(registry);
        for (InstanceState state : InstanceState.values()) {
            gauge("sop.engine.instances", "Instances stored on this replica's partitions, by state", "state", state.wireName(),
                    counts -> counts.instances().getOrDefault(state.wireName(), 0L), queries);
        }
        for (StepType type : StepType.values()) {
            gauge("sop.engine.steps.pending", "Steps waiting to be resolved on this replica's partitions, by type", "type", type.wireName(),
                    counts -> counts.stepsPending().getOrDefault(type.wireName(), 0L), queries);
        }
        gauges.add(Gauge.builder("sop.engine.timers.due", queries, local -> readOrNaN(() -> local.timersDue(Instant.now(), TIMERS_DUE_COUNTED)))
                .description("Timers of this replica's partitions that are due and not fired yet").register(registry));
        try {
            workerLag = WorkerLag.start(bootstrapServers, registry);
        } catch (RuntimeException e) {
            // Metrics must never keep the engine from running.
            LOG.warn("Not reporting the worker groups' lag: {}", e.toString());
        }
    }

    private void gauge(String name, String description, String tag, String value, ToDoubleFunction<WorkspaceCounts> read,
                       EngineQueries queries) {
        gauges.add(Gauge.builder(name, queries, local -> readOrNaN(() -> read.applyAsDouble(counts(local))))
                .description(description).tag(tag, value).register(registry));
    }

    /** One read of the counters serves every gauge of a scrape. */
    private WorkspaceCounts counts(EngineQueries queries) {
        long now = System.nanoTime();
        WorkspaceCounts counts = lastCounts;
        if (counts == null || now - lastCountsAt > COUNTS_KEPT.toNanos()) {
            counts = queries.localTotals();
            lastCounts = counts;
            lastCountsAt = now;
        }
        return counts;
    }

    private interface Reading {
        double read();
    }

    private static double readOrNaN(Reading reading) {
        try {
            return reading.read();
        } catch (RuntimeException storesNotReady) {
            return Double.NaN;
        }
    }

    @Override
    public void close() {
        if (workerLag != null) {
            workerLag.close();
        }
        if (streamsMetrics != null) {
            streamsMetrics.close();
        }
        gauges.forEach(registry::remove);
        gauges.clear();
        commands.remove();
    }
}
