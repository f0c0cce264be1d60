package dev.sopline.engine.query;

import dev.sopline.engine.state.ProcessCounters;
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

    /** The counters of several processes added up, every state and step type present (zero when none). */
    public static WorkspaceCounts of(List<ProcessCounters> processes) {
        Map<String, Long> instances = new LinkedHashMap<>();
        for (InstanceState state : List.of(InstanceState.RUNNING, InstanceState.WAITING, InstanceState.COMPLETED, InstanceState.FAILED,
                InstanceState.CANCELLED)) {
            instances.put(state.wireName(), 0L);
        }
        Map<String, Long> pending = new LinkedHashMap<>();
        for (StepType type : StepType.values()) {
            pending.put(type.wireName(), 0L);
        }
        long escalations = 0;
        for (ProcessCounters counters : processes) {
            counters.instances().forEach((state, count) -> instances.merge(state, count, Long::sum));
            counters.stepsPending().forEach((type, count) -> pending.merge(type, count, Long::sum));
            escalations += counters.escalations();
        }
        return new WorkspaceCounts(instances, pending, escalations);
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
