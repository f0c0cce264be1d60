package dev.sopline.engine.topology;

import static dev.sopline.engine.topology.EngineHarness.WORKSPACE;

import dev.sopline.engine.api.query.PendingFilter;
import dev.sopline.engine.api.query.WorkspaceCounts;
import dev.sopline.engine.state.InstanceListIndex;
import dev.sopline.engine.state.MetricCounters;
import dev.sopline.engine.state.PendingStepStore;
import dev.sopline.engine.state.ProcessCounters;
import dev.sopline.engine.api.view.WindowBucket;
import dev.sopline.engine.state.WindowBuckets;
import dev.sopline.schemas.instance.InstanceState;
import dev.sopline.schemas.instance.PendingStep;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/** Reads the engine's indexes in the harness as the queries read them on one partition. */
final class IndexReads {

    private final EngineHarness engine;

    IndexReads(EngineHarness engine) {
        this.engine = engine;
    }

    List<String> instances(String process, InstanceState state, String cursor, int limit) {
        return InstanceListIndex.newestIds(store(EngineTopology.INSTANCE_INDEX_STORE), WORKSPACE, process, state, cursor, limit);
    }

    List<PendingStep> pending(PendingFilter filter, String cursor, int limit) {
        return PendingStepStore.oldest(store(EngineTopology.PENDING_STORE), WORKSPACE, filter::matches, cursor, limit);
    }

    WorkspaceCounts counts() {
        KeyValueStore<String, ProcessCounters> counters = store(EngineTopology.COUNTERS_STORE);
        return ProcessCounters.total(MetricCounters.ofWorkspace(counters, WORKSPACE));
    }

    WindowBucket window(Instant from, Instant to) {
        return WindowBuckets.sum(store(EngineTopology.WINDOW_STORE), WORKSPACE, from, to);
    }

    List<String> keys(String storeName) {
        List<String> keys = new ArrayList<>();
        try (KeyValueIterator<String, Object> iterator = engine.store(storeName).all()) {
            iterator.forEachRemaining(entry -> keys.add(entry.key));
        }
        return keys;
    }

    @SuppressWarnings("unchecked")
    <V> KeyValueStore<String, V> store(String name) {
        return (KeyValueStore<String, V>) (KeyValueStore<String, ?>) engine.store(name);
    }
}
