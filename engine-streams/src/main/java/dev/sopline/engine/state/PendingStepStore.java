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
        return "%s|%015d|%s|%s".formatted(workspace, readyAtMillis, instanceId, stepId);
    }

    /** The key of an entry without its workspace prefix: its place in the workspace's feed. */
    public static String positionOf(PendingStep step) {
        return "%015d|%s|%s".formatted(step.createdAt().toEpochMilli(), step.instanceId(), step.stepId());
    }

    public static String workspacePrefix(String workspace) {
        return workspace + "|";
    }

    /** Brings the index in line with one instance's change: the steps ready before and after. */
    public void update(Instance before, Instance after, ProcessDefinition definition) {
        if (before != null) {
            for (StepRun step : before.steps()) {
                if (step.isReady()) {
                    store.delete(key(before.workspace(), step.readyAt().toEpochMilli(), before.id(), step.id()));
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
