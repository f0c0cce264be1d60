package dev.sopline.engine.query;

import dev.sopline.engine.api.topic.EngineTopics;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.StreamsMetadata;
import org.apache.kafka.streams.state.HostInfo;

/**
 * Where the copies of each partition of the command topic are, as the group's metadata last said: the one replica
 * active for it and the replicas holding a standby copy. Every per-instance store is partitioned like the command
 * topic, so this says where each store's partitions are too.
 *
 * @param byActive the partitions each replica is active for
 * @param standbys the replicas holding a standby copy of each partition
 * @param withoutActive partitions that have standby copies but no active replica (mid-rebalance)
 */
record PartitionHosts(Map<HostInfo, Set<Integer>> byActive, Map<Integer, Set<HostInfo>> standbys, Set<Integer> withoutActive) {

    static PartitionHosts of(Collection<StreamsMetadata> group) {
        Map<HostInfo, Set<Integer>> byActive = new LinkedHashMap<>();
        Map<Integer, Set<HostInfo>> standbys = new LinkedHashMap<>();
        Set<Integer> active = new TreeSet<>();
        for (StreamsMetadata replica : group) {
            for (TopicPartition partition : replica.topicPartitions()) {
                if (partition.topic().equals(EngineTopics.COMMANDS) && active.add(partition.partition())) {
                    byActive.computeIfAbsent(replica.hostInfo(), host -> new TreeSet<>()).add(partition.partition());
                }
            }
            for (TopicPartition partition : replica.standbyTopicPartitions()) {
                if (partition.topic().equals(EngineTopics.COMMANDS)) {
                    standbys.computeIfAbsent(partition.partition(), p -> new LinkedHashSet<>()).add(replica.hostInfo());
                }
            }
        }
        Set<Integer> withoutActive = new TreeSet<>(standbys.keySet());
        withoutActive.removeAll(active);
        return new PartitionHosts(byActive, standbys, withoutActive);
    }

    Set<HostInfo> standbysOf(int partition) {
        return standbys.getOrDefault(partition, Set.of());
    }
}
