package dev.sopline.engine.state;

import dev.sopline.engine.api.query.WorkspaceCounts;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Counters of one process in one workspace, kept by the partition's processor as its instances change state, so that
 * {@code /sop/metrics} and the engine's gauges read a handful of records instead of every instance.
 *
 * @param instances stored instances by state (wire name); a removed instance no longer counts
 * @param stepsPending steps waiting to be resolved (the pending feed's entries), by step type (wire name)
 * @param escalations pending steps that an agent escalated to a person
 * @param format the stored record's format
 */
public record ProcessCounters(Map<String, Long> instances, Map<String, Long> stepsPending, long escalations, Integer format) {

    public static final int FORMAT = 1;

    public ProcessCounters {
        instances = instances == null ? Map.of() : Map.copyOf(instances);
        stepsPending = stepsPending == null ? Map.of() : Map.copyOf(stepsPending);
        format = format == null ? FORMAT : format;
    }

    public static ProcessCounters none() {
        return new ProcessCounters(Map.of(), Map.of(), 0, FORMAT);
    }

    /** The counters of several processes added up, every state and step type present (zero when none). */
    public static WorkspaceCounts total(List<ProcessCounters> processes) {
        WorkspaceCounts total = WorkspaceCounts.zero();
        for (ProcessCounters counters : processes) {
            total = total.plus(new WorkspaceCounts(counters.instances(), counters.stepsPending(), counters.escalations()));
        }
        return total;
    }

    public ProcessCounters plus(ProcessCounters delta) {
        return new ProcessCounters(sum(instances, delta.instances), sum(stepsPending, delta.stepsPending),
                escalations + delta.escalations, FORMAT);
    }

    /** Whether every counter is zero, so the record can be dropped. */
    public boolean isZero() {
        return escalations == 0 && instances.values().stream().allMatch(count -> count == 0)
                && stepsPending.values().stream().allMatch(count -> count == 0);
    }

    private static Map<String, Long> sum(Map<String, Long> left, Map<String, Long> right) {
        Map<String, Long> total = new LinkedHashMap<>(left);
        right.forEach((key, value) -> total.merge(key, value, Long::sum));
        total.values().removeIf(count -> count == 0);
        return total;
    }
}
