package dev.sopline.engine.api.query;

import dev.sopline.schemas.definition.StepType;
import dev.sopline.schemas.instance.InstanceState;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Counters of one workspace, summed over the processes and over the replicas that hold its partitions.
 *
 * @param instances instances by state
 * @param stepsPending steps waiting to be resolved, by step type
 * @param escalations escalated judgments waiting for a person
 */
public record WorkspaceCounts(Map<String, Long> instances, Map<String, Long> stepsPending, long escalations) {

    /** No instance and no pending step: every state and step type present, at zero. */
    public static WorkspaceCounts zero() {
        Map<String, Long> instances = new LinkedHashMap<>();
        for (InstanceState state : List.of(InstanceState.RUNNING, InstanceState.WAITING, InstanceState.COMPLETED, InstanceState.FAILED,
                InstanceState.CANCELLED)) {
            instances.put(state.wireName(), 0L);
        }
        Map<String, Long> pending = new LinkedHashMap<>();
        for (StepType type : StepType.values()) {
            pending.put(type.wireName(), 0L);
        }
        return new WorkspaceCounts(instances, pending, 0);
    }

    public WorkspaceCounts plus(WorkspaceCounts other) {
        return new WorkspaceCounts(sum(instances, other.instances), sum(stepsPending, other.stepsPending), escalations + other.escalations);
    }

    private static Map<String, Long> sum(Map<String, Long> left, Map<String, Long> right) {
        Map<String, Long> total = new LinkedHashMap<>(left);
        right.forEach((key, value) -> total.merge(key, value, Long::sum));
        return total;
    }
}
