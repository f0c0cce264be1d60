package dev.sopline.engine.query;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Counters of one workspace, summed over the replicas that hold its partitions.
 *
 * @param instances instances by state
 * @param stepsPending steps waiting to be resolved, by step type
 * @param escalations escalated judgments waiting for a person
 */
public record WorkspaceCounts(Map<String, Long> instances, Map<String, Long> stepsPending, long escalations) {

    public WorkspaceCounts plus(WorkspaceCounts other) {
        return new WorkspaceCounts(sum(instances, other.instances), sum(stepsPending, other.stepsPending), escalations + other.escalations);
    }

    private static Map<String, Long> sum(Map<String, Long> left, Map<String, Long> right) {
        Map<String, Long> total = new LinkedHashMap<>(left);
        right.forEach((key, value) -> total.merge(key, value, Long::sum));
        return total;
    }
}
