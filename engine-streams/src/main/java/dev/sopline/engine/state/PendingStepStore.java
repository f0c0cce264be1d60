package dev.sopline.engine.state;

import dev.sopline.schemas.definition.ProcessDefinition;
import dev.sopline.schemas.instance.PendingStep;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Index of the step attempts waiting to be resolved, kept beside the instances so that the pending feed is a range
 * scan instead of a scan of every instance. Key: {@code <workspace>|<ready time>|<instance id>|<step id>}, so a
 * workspace's entries come out oldest first.
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

    /** Brings the index in line with one instance's change: the steps ready before and after. */
    public void update(Instance before, Instance after, ProcessDefinition definition) {
        if (before != null) {
            for (StepRun step : before.steps()) {
                if (step.isReady()) {
                    // put(key, null) deletes without reading back the old entry, which delete() deserialises to return.
                    store.put(key(before.workspace(), step.readyAt().toEpochMilli(), before.id(), step.id()), null);
                }
            }
        }
        if (after != null && !after.isTerminal()) {
            for (StepRun step : after.steps()) {
                if (step.isReady()) {
                    store.put(key(after.workspace(), step.readyAt().toEpochMilli(), after.id(), step.id()), PendingSteps.of(after, step, definition));
                }
            }
        }
    }
}
