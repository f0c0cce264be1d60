package dev.sopline.engine.state;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * The counters store: one {@link ProcessCounters} per {@code <workspace>|<process>}, changed by the difference between
 * an instance before and after each decision.
 */
public final class MetricCounters {

    private static final StringSerializer KEYS = new StringSerializer();

    private final DecodedValues<ProcessCounters> store;

    public MetricCounters(KeyValueStore<String, ProcessCounters> store) {
        // One record per process of the workspaces this task serves, changed by every start and end.
        this.store = new DecodedValues<>(store, 1_024);
    }

    public static String key(String workspace, String process) {
        return workspacePrefix(workspace) + process;
    }

    public static String workspacePrefix(String workspace) {
        return workspace + '|';
    }

    /** Counts one instance's change; either side may be null (started, removed). */
    public void update(Instance before, Instance after) {
        Instance any = after != null ? after : before;
        if (any == null) {
            return;
        }
        ProcessCounters delta = delta(before, after);
        if (delta.isZero()) {
            return;
        }
        String key = key(any.workspace(), any.process());
        ProcessCounters stored = store.get(key);
        ProcessCounters updated = (stored == null ? ProcessCounters.none() : stored).plus(delta);
        store.put(key, updated.isZero() ? null : updated);
    }

    private static ProcessCounters delta(Instance before, Instance after) {
        Map<String, Long> instances = new HashMap<>();
        Map<String, Long> steps = new HashMap<>();
        long escalations = 0;
        if (before != null) {
            instances.merge(before.state().wireName(), -1L, Long::sum);
            for (StepRun step : PendingStepStore.pendingStepsOf(before)) {
                steps.merge(step.type().wireName(), -1L, Long::sum);
                escalations -= step.escalated() ? 1 : 0;
            }
        }
        if (after != null) {
            instances.merge(after.state().wireName(), 1L, Long::sum);
            for (StepRun step : PendingStepStore.pendingStepsOf(after)) {
                steps.merge(step.type().wireName(), 1L, Long::sum);
                escalations += step.escalated() ? 1 : 0;
            }
        }
        return new ProcessCounters(instances, steps, escalations, ProcessCounters.FORMAT).plus(ProcessCounters.none());
    }

    /** Every process's counters of one workspace, across the partitions this store holds. */
    public static List<ProcessCounters> ofWorkspace(ReadOnlyKeyValueStore<String, ProcessCounters> store, String workspace) {
        String prefix = workspacePrefix(workspace);
        return collect(store.prefixScan(prefix, KEYS));
    }

    /** Every counter record this store holds, of every workspace. */
    public static List<ProcessCounters> all(ReadOnlyKeyValueStore<String, ProcessCounters> store) {
        return collect(store.all());
    }

    private static List<ProcessCounters> collect(KeyValueIterator<String, ProcessCounters> iterator) {
        List<ProcessCounters> found = new ArrayList<>();
        try (iterator) {
            iterator.forEachRemaining(entry -> found.add(entry.value));
        }
        return found;
    }
}
