package dev.sopline.engine.state;

import dev.sopline.engine.decision.JsonSize;
import dev.sopline.schemas.definition.ProcessDefinition;
import dev.sopline.schemas.instance.PendingStep;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * Index of the step attempts waiting to be resolved, kept beside the instances so that the pending feed is a range
 * scan instead of a scan of every instance. Key: {@code <workspace>|<ready time>|<instance id>|<step id>}, so a
 * workspace's entries come out oldest first. Stored on disk with a changelog like the instances, so a task that
 * starts finds it ready instead of rebuilding it from every instance, and open steps' inputs stay off the heap.
 */
public final class PendingStepStore {

    private final KeyValueStore<String, PendingStep> store;

    public PendingStepStore(KeyValueStore<String, PendingStep> store) {
        this.store = store;
    }

    public static String key(String workspace, long readyAtMillis, String instanceId, String stepId) {
        return workspacePrefix(workspace) + position(readyAtMillis, instanceId, stepId);
    }

    /** The key of an entry without its workspace prefix: its place in the workspace's feed. */
    public static String positionOf(PendingStep step) {
        return position(step.createdAt().toEpochMilli(), step.instanceId(), step.stepId());
    }

    // Concatenation, not String.format: keys are built for every step change on the stream thread, where format's
    // parsing of its pattern showed in profiles. Fifteen digits keep the keys in time order for a range scan.
    private static String position(long readyAtMillis, String instanceId, String stepId) {
        String millis = Long.toString(readyAtMillis);
        return "0".repeat(Math.max(0, 15 - millis.length())) + millis + '|' + instanceId + '|' + stepId;
    }

    public static String workspacePrefix(String workspace) {
        return workspace + "|";
    }

    /**
     * Brings the index in line with one instance's change: the steps pending before and after. Either side may be
     * null (started, removed). Every active step of an instance has its own entry, however many there are.
     */
    public void update(Instance before, Instance after, ProcessDefinition definition) {
        List<StepRun> was = before == null ? List.of() : pendingStepsOf(before);
        List<StepRun> is = after == null ? List.of() : pendingStepsOf(after);
        for (StepRun step : was) {
            if (!unchanged(step, before, after, is)) {
                // put(key, null) deletes without reading back the old entry, which delete() deserialises to return.
                store.put(key(before.workspace(), step.readyAt().toEpochMilli(), before.id(), step.id()), null);
            }
        }
        for (StepRun step : is) {
            if (!unchanged(step, after, before, was)) {
                store.put(key(after.workspace(), step.readyAt().toEpochMilli(), after.id(), step.id()), PendingSteps.of(after, step, definition));
            }
        }
    }

    /**
     * A step pending on both sides, equal on both, of the same process version: its entry would be deleted and written
     * again with the same key and value (an entry is made of the step, the instance's id and version, and the
     * version's declaration), which costs a store write and a changelog record each for nothing. Happens to the other
     * branches of a parallel block whenever one of them moves.
     */
    private static boolean unchanged(StepRun step, Instance instance, Instance other, List<StepRun> otherSteps) {
        return other != null && instance.version().equals(other.version()) && otherSteps.contains(step);
    }

    /** The steps of an instance the feed lists: each step that is active and offered, while the instance goes on. */
    public static List<StepRun> pendingStepsOf(Instance instance) {
        if (instance.isTerminal()) {
            return List.of();
        }
        return instance.steps().stream().filter(StepRun::isReady).toList();
    }

    /**
     * Up to {@code max} entries of a workspace that match, oldest first, after {@code cursor} (a position, see
     * {@link #positionOf}) if given. Stops once it has them.
     */
    public static List<PendingStep> oldest(ReadOnlyKeyValueStore<String, PendingStep> store, String workspace,
                                           Predicate<PendingStep> filter, String cursor, int max) {
        String prefix = workspacePrefix(workspace);
        String from = cursor == null ? prefix : prefix + cursor;
        List<PendingStep> found = new ArrayList<>();
        try (KeyValueIterator<String, PendingStep> iterator = store.range(from, prefix + "~")) {
            while (iterator.hasNext() && found.size() < max) {
                KeyValue<String, PendingStep> entry = iterator.next();
                if (!entry.key.equals(from) && filter.test(entry.value)) {
                    found.add(entry.value);
                }
            }
        }
        return found;
    }

    /** One partition's part of a page: its entries, oldest first, and whether it has more after the last. */
    public record Part(List<PendingStep> steps, boolean cut) {}

    /**
     * As {@link #oldest(ReadOnlyKeyValueStore, String, Predicate, String, int)}, stopping early, with {@code cut}, once
     * the entries' data reaches {@code maxBytes}.
     */
    public static Part oldest(ReadOnlyKeyValueStore<String, PendingStep> store, String workspace, Predicate<PendingStep> filter,
                              String cursor, int max, long maxBytes) {
        String prefix = workspacePrefix(workspace);
        String from = cursor == null ? prefix : prefix + cursor;
        List<PendingStep> found = new ArrayList<>();
        long bytes = 0;
        try (KeyValueIterator<String, PendingStep> iterator = store.range(from, prefix + "~")) {
            while (iterator.hasNext() && found.size() < max) {
                KeyValue<String, PendingStep> entry = iterator.next();
                if (entry.key.equals(from) || !filter.test(entry.value)) {
                    continue;
                }
                if (bytes >= maxBytes) {
                    return new Part(found, true);
                }
                found.add(entry.value);
                bytes += dataBytes(entry.value);
            }
        }
        return new Part(found, false);
    }

    /** The data an entry carries, as JSON: its inputs and, for an escalated judgment, the agent's proposal. */
    public static long dataBytes(PendingStep step) {
        return JsonSize.of(step.inputs()) + JsonSize.of(step.proposal());
    }
}
