package dev.sopline.engine.state;

import dev.sopline.schemas.definition.ProcessDefinition;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Everything the engine derives from its instances to answer without scanning them: the pending feed, the list
 * index, the finished instances in retention order, the counters and the metrics window. Each decision's change of
 * one instance goes through {@link #update}, in the same transaction as the instance itself, so they never drift.
 *
 * <p>Records written before these stores existed (an engine of the previous format) are indexed once, by
 * {@link #indexOnce}, which then writes a marker so that no later task start scans the instances again. A list index
 * of format 1 loses the keys format 2 no longer keeps ({@link InstanceListIndex}) the same way, once.
 */
public final class InstanceIndexes {

    /** Marker key in the list index store: its value is the format the derived stores were built in. */
    static final String BUILT_MARKER = "!indexes-format";
    static final String BUILT_FORMAT = "2";
    /** The list index kept a key for every instance and one for its process besides those by state. */
    static final String FORMAT_WITH_ANY_STATE_KEYS = "1";

    private final PendingStepStore pending;
    private final InstanceListIndex lists;
    private final FinishedInstances finished;
    private final MetricCounters counters;
    private final WindowBuckets window;
    private final KeyValueStore<String, String> listStore;
    private final Duration retention;

    public InstanceIndexes(PendingStepStore pending, KeyValueStore<String, String> listStore, FinishedInstances finished,
                           MetricCounters counters, WindowBuckets window, Duration retention) {
        this.pending = pending;
        this.lists = new InstanceListIndex(listStore);
        this.listStore = listStore;
        this.finished = finished;
        this.counters = counters;
        this.window = window;
        this.retention = retention;
    }

    /**
     * One instance changed by a decision at {@code now}; either side may be null (started, removed).
     *
     * @param definition the instance's process version, for the pending feed's entries
     */
    public void update(Instance before, Instance after, ProcessDefinition definition, Instant now) {
        if (definition != null) {
            pending.update(before, after, definition);
        } else if (before != null) {
            pending.update(before, null, null);
        }
        lists.update(before, after);
        counters.update(before, after);
        window.record(before, after, now);
        if (after != null && after.isTerminal() && (before == null || !before.isTerminal())) {
            finished.add(after, retention);
        }
    }

    /** Finished instances whose retention has ended by {@code now}, but those {@code skip} accepts the key of. */
    public List<FinishedInstance> expired(Instant now, int max, Predicate<String> skip) {
        return finished.expired(now, max, skip);
    }

    /** Takes an entry out of the retention index: its instance's expiry is being decided. */
    public void forgetFinished(FinishedInstance entry) {
        finished.remove(entry);
    }

    /** A finished instance whose expiry came while the retention was longer than now: wait again. */
    public void keepFinished(Instance instance) {
        finished.add(instance, retention);
    }

    /** Removes a window bucket past every window ({@link Timer.Kind#FORGET_WINDOW_BUCKET}). */
    public void forgetWindowBucket(String key) {
        window.forget(key);
    }

    /**
     * Indexes every stored instance, once: when the stores were created by this version of the engine, the marker is
     * there and nothing is read. Stores indexed by the previous version (list index format 1) only lose the list keys
     * this version no longer keeps.
     */
    public void indexOnce(KeyValueStore<String, Instance> instances, Function<Instance, Optional<ProcessDefinition>> definitions) {
        String built = listStore.get(BUILT_MARKER);
        if (BUILT_FORMAT.equals(built)) {
            return;
        }
        try (KeyValueIterator<String, Instance> all = instances.all()) {
            all.forEachRemaining(entry -> {
                Instance instance = entry.value;
                if (FORMAT_WITH_ANY_STATE_KEYS.equals(built)) {
                    lists.forgetFormerKeys(instance);
                    return;
                }
                Optional<ProcessDefinition> definition = definitions.apply(instance);
                definition.ifPresent(found -> pending.update(null, instance, found));
                lists.update(null, instance);
                counters.update(null, instance);
                if (instance.isTerminal()) {
                    finished.add(instance, retention);
                }
            });
        }
        listStore.put(BUILT_MARKER, BUILT_FORMAT);
    }
}
