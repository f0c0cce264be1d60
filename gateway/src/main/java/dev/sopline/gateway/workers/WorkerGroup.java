package dev.sopline.gateway.workers;

import java.time.Instant;
import java.util.List;

/**
 * A consumer group of automated workers, as the broker last described it.
 *
 * @param group the consumer group id
 * @param namespaces the teams whose steps it reads ({@code sop.steps.automated.<namespace>})
 * @param members its live members; empty when it was seen recently but has none now
 * @param lag steps written to its topics and not yet committed by it (waiting or running), summed over partitions
 * @param inFlight steps its members run now, as they last told in their commits (a subset of {@code lag}); figures
 *     older than two minutes, from a member that stopped committing, are not counted
 * @param lastSeen when it last had members
 */
public record WorkerGroup(String group, List<String> namespaces, List<Member> members, long lag, long inFlight, Instant lastSeen) {

    /**
     * One member of a group.
     *
     * @param clientId the worker id it runs under ({@code workerId} in the SDK)
     * @param host the address it connects from
     * @param partitions partitions of step topics assigned to it
     */
    public record Member(String clientId, String host, int partitions) {}
}
