package dev.sopline.engine.query;

import dev.sopline.engine.api.query.StateUnavailableException;
import dev.sopline.engine.api.query.Answer;
import dev.sopline.engine.api.query.EngineReader;
import dev.sopline.engine.api.query.InstanceFilter;
import dev.sopline.engine.api.query.Page;
import dev.sopline.engine.api.query.PendingFilter;
import dev.sopline.engine.api.query.QueryParameters;
import dev.sopline.engine.api.query.EngineQueryKey;
import dev.sopline.engine.api.query.ReplicaClient;
import dev.sopline.engine.api.query.WorkspaceCounts;
import dev.sopline.engine.api.view.ProcessVersions;
import dev.sopline.engine.api.topic.EngineTopics;
import dev.sopline.engine.topology.EngineTopology;
import dev.sopline.schemas.instance.CallbackOwner;
import dev.sopline.schemas.instance.InstanceView;
import dev.sopline.schemas.instance.PendingStep;
import dev.sopline.engine.api.view.WindowBucket;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.HostInfo;
import tools.jackson.core.type.TypeReference;

/**
 * Routes each query to the replicas that own the data, using the {@code application.server} each replica
 * advertises: a lookup by instance id goes to the one active owner of its partition; a list, count or window asks
 * each replica for the partitions it is active for (a standby copy, marked stale, for those whose owner does not
 * answer) and merges the pages or sums the parts. Global stores (definitions, callbacks) are complete on every replica and read locally.
 * Without an advertised endpoint this replica is taken to be the only one.
 */
public final class RoutingEngineReader implements EngineReader {

    private final KafkaStreams streams;
    private final HostInfo self;
    private final EngineQueries local;
    private final int commandPartitions;
    private final ReplicaClient replicas;

    /**
     * @param self this replica's advertised query endpoint, or null when it is the only one
     * @param commandPartitions partitions of the command topic, whose partitioning the stores follow
     */
    /** @param key shown to the other replicas ({@link EngineQueryKey}) */
    public RoutingEngineReader(KafkaStreams streams, HostInfo self, EngineQueries local, int commandPartitions, EngineQueryKey key) {
        this.replicas = new ReplicaClient(() -> key);
        this.streams = streams;
        this.self = self;
        this.local = local;
        this.commandPartitions = commandPartitions;
    }

    @Override
    public Optional<InstanceView> instance(String workspace, String instanceId) {
        return instanceAnswer(workspace, instanceId).map(Answer::value);
    }

    /**
     * From the active owner of the instance's partition; while the owner cannot answer (it is gone and the group has
     * not yet moved its partitions, or the new owner is still restoring), from a standby copy, marked stale.
     */
    @Override
    public Optional<Answer<InstanceView>> instanceAnswer(String workspace, String instanceId) {
        if (self == null) {
            return local.instance(workspace, instanceId, partitionOf(instanceId), false).map(Answer::fresh);
        }
        KeyQueryMetadata owner = ownerOf(EngineTopology.INSTANCES_STORE, instanceId);
        if (owner == null || owner.equals(KeyQueryMetadata.NOT_AVAILABLE)) {
            // Mid-rebalance nobody is named owner: any copy here may answer, but its "absent" would be a guess.
            return Optional.of(fromStandbys(workspace, instanceId, null, Set.of(),
                    new StateUnavailableException("No owner is known for instance " + instanceId + " during a rebalance")));
        }
        int partition = owner.partition();
        try {
            if (owner.activeHost().equals(self)) {
                return local.instance(workspace, instanceId, partition, false).map(Answer::fresh);
            }
            return replicas.get(url(owner.activeHost()), QueryServer.LOCAL_INSTANCE,
                    Map.of("workspace", workspace, "id", instanceId, "partition", partition), new TypeReference<InstanceView>() {})
                    .map(Answer::fresh);
        } catch (StateUnavailableException ownerUnavailable) {
            return Optional.of(fromStandbys(workspace, instanceId, partition, owner.standbyHosts(), ownerUnavailable));
        }
    }

    /** The first copy that holds the instance answers; a copy without it may be behind, so that is no answer. */
    private Answer<InstanceView> fromStandbys(String workspace, String instanceId, Integer partition, Set<HostInfo> standbys,
                                              StateUnavailableException cause) {
        Set<HostInfo> candidates = new LinkedHashSet<>();
        candidates.add(self);
        candidates.addAll(standbys);
        for (HostInfo host : candidates) {
            try {
                Optional<InstanceView> copy;
                if (host.equals(self)) {
                    copy = local.instance(workspace, instanceId, partition, true);
                } else {
                    Map<String, Object> parameters = new HashMap<>(Map.of("workspace", workspace, "id", instanceId, "stale", "true"));
                    if (partition != null) {
                        parameters.put("partition", partition);
                    }
                    copy = replicas.get(url(host), QueryServer.LOCAL_INSTANCE, parameters, new TypeReference<InstanceView>() {});
                }
                if (copy.isPresent()) {
                    return new Answer<>(copy.get(), true);
                }
            } catch (StateUnavailableException standbyUnavailable) {
                cause.addSuppressed(standbyUnavailable);
            }
        }
        throw cause;
    }

    @Override
    public Page<InstanceView> instances(String workspace, InstanceFilter filter, String cursor, int limit) {
        if (self == null) {
            return local.instances(workspace, filter, cursor, limit);
        }
        Map<String, Object> parameters = QueryParameters.page(QueryParameters.of(filter), workspace, cursor, limit);
        List<Page<InstanceView>> pages = byPartition((host, partitions, stale) -> host.equals(self)
                ? local.instances(workspace, filter, cursor, limit, partitions, stale)
                : ask(host, QueryServer.LOCAL_INSTANCES, QueryParameters.scoped(parameters, partitions, stale),
                        new TypeReference<Page<InstanceView>>() {}));
        return Page.merge(pages, Orders.NEWEST_FIRST, limit, Orders::instanceCursor);
    }

    @Override
    public Page<PendingStep> pendingSteps(String workspace, PendingFilter filter, String cursor, int limit) {
        if (self == null) {
            return local.pendingSteps(workspace, filter, cursor, limit);
        }
        Map<String, Object> parameters = QueryParameters.page(QueryParameters.of(filter), workspace, cursor, limit);
        List<Page<PendingStep>> pages = byPartition((host, partitions, stale) -> host.equals(self)
                ? local.pendingSteps(workspace, filter, cursor, limit, partitions, stale)
                : ask(host, QueryServer.LOCAL_PENDING, QueryParameters.scoped(parameters, partitions, stale),
                        new TypeReference<Page<PendingStep>>() {}));
        return Page.merge(pages, Orders.OLDEST_FIRST, limit, Orders::pendingCursor);
    }

    /** From the active owner of the instance's partition, the only one that holds its history; unavailable meanwhile. */
    @Override
    public Page<dev.sopline.schemas.instance.HistoryEntry> history(String workspace, String instanceId, String cursor, int limit) {
        if (self == null) {
            return local.history(workspace, instanceId, partitionOf(instanceId), cursor, limit);
        }
        KeyQueryMetadata owner = ownerOf(EngineTopology.HISTORY_STORE, instanceId);
        if (owner == null || owner.equals(KeyQueryMetadata.NOT_AVAILABLE)) {
            throw new StateUnavailableException("No owner is known for instance " + instanceId + " during a rebalance");
        }
        if (owner.activeHost().equals(self)) {
            return local.history(workspace, instanceId, owner.partition(), cursor, limit);
        }
        Map<String, Object> parameters = new HashMap<>(Map.of("workspace", workspace, "id", instanceId, "partition", owner.partition(),
                "limit", limit));
        if (cursor != null) {
            parameters.put("cursor", cursor);
        }
        return replicas.get(url(owner.activeHost()), QueryServer.LOCAL_HISTORY, parameters,
                new TypeReference<Page<dev.sopline.schemas.instance.HistoryEntry>>() {}).orElseThrow();
    }

    @Override
    public WorkspaceCounts counts(String workspace) {
        if (self == null) {
            return local.counts(workspace);
        }
        List<WorkspaceCounts> parts = byPartition((host, partitions, stale) -> host.equals(self)
                ? local.counts(workspace, partitions, stale)
                : ask(host, QueryServer.LOCAL_COUNTS, QueryParameters.scoped(Map.of("workspace", workspace), partitions, stale),
                        new TypeReference<WorkspaceCounts>() {}));
        return parts.stream().reduce(WorkspaceCounts::plus).orElseGet(WorkspaceCounts::zero);
    }

    @Override
    public WindowBucket window(String workspace, Instant from, Instant to) {
        if (self == null) {
            return local.window(workspace, from, to);
        }
        List<WindowBucket> parts = byPartition((host, partitions, stale) -> host.equals(self)
                ? local.window(workspace, from, to, partitions, stale)
                : ask(host, QueryServer.LOCAL_WINDOW, QueryParameters.scoped(QueryParameters.window(workspace, from, to), partitions, stale),
                        new TypeReference<WindowBucket>() {}));
        return parts.stream().reduce(WindowBucket::plus).orElseGet(WindowBucket::empty);
    }

    @Override
    public Optional<CallbackOwner> callbackOwner(String callbackId) {
        return local.callbackOwner(callbackId);
    }

    @Override
    public Optional<ProcessVersions> process(String workspace, String name) {
        return local.process(workspace, name);
    }

    @Override
    public Optional<ProcessVersions.PublishedVersion> latestVersion(String workspace, String name) {
        return local.latestVersion(workspace, name);
    }

    @Override
    public List<ProcessVersions> processes(String workspace) {
        return local.processes(workspace);
    }

    /** One replica's answer for some partitions; {@link StateUnavailableException} when it cannot give it. */
    @FunctionalInterface
    private interface PartitionRead<T> {
        T read(HostInfo host, Set<Integer> partitions, boolean stale);
    }

    /**
     * Asks each replica for exactly the partitions it is active for. The partitions of a replica that does not answer
     * (it is gone and the group has not moved them yet, or it is still restoring them), and those no replica is active
     * for, are each read from a standby copy, this replica's first; only when no copy of a partition answers does the
     * read fail.
     */
    private <T> List<T> byPartition(PartitionRead<T> read) {
        PartitionHosts hosts;
        try {
            hosts = PartitionHosts.of(streams.metadataForAllStreamsClients());
        } catch (InvalidStateStoreException notRunning) {
            throw new StateUnavailableException(notRunning.getMessage(), notRunning);
        }
        List<T> parts = new ArrayList<>();
        Set<Integer> unanswered = new TreeSet<>(hosts.withoutActive());
        StateUnavailableException failures = new StateUnavailableException("Expected the owner or a standby copy of every partition to answer");
        for (Map.Entry<HostInfo, Set<Integer>> active : hosts.byActive().entrySet()) {
            try {
                parts.add(read.read(active.getKey(), active.getValue(), false));
            } catch (StateUnavailableException ownerUnavailable) {
                failures.addSuppressed(ownerUnavailable);
                unanswered.addAll(active.getValue());
            }
        }
        for (int partition : unanswered) {
            parts.add(fromCopies(read, partition, hosts.standbysOf(partition), failures));
        }
        return parts;
    }

    private <T> T fromCopies(PartitionRead<T> read, int partition, Set<HostInfo> standbys, StateUnavailableException failures) {
        Set<HostInfo> candidates = new LinkedHashSet<>();
        candidates.add(self);
        candidates.addAll(standbys);
        for (HostInfo host : candidates) {
            try {
                return read.read(host, Set.of(partition), true);
            } catch (StateUnavailableException copyUnavailable) {
                failures.addSuppressed(copyUnavailable);
            }
        }
        throw failures;
    }

    /** A replica's answer to a scoped read; these always answer with a body, so anything else means it could not. */
    private <T> T ask(HostInfo host, String path, Map<String, Object> parameters, TypeReference<T> type) {
        return replicas.get(url(host), path, parameters, type).orElseThrow(() ->
                new StateUnavailableException("Expected replica " + url(host) + " to answer " + path + ", but it found nothing"));
    }

    /**
     * The partition that holds an instance, for a replica that is the only one: it reads that partition's store alone
     * instead of every partition's, and a partition it does not serve yet makes the read unavailable rather than
     * "absent". Computed, as Kafka Streams names no partition without an advertised endpoint.
     */
    private int partitionOf(String instanceId) {
        return EngineTopics.partitionOf(instanceId, commandPartitions);
    }

    /** Who holds a key's partition; Kafka Streams' "not running yet" is said in the engine's own terms. */
    private KeyQueryMetadata ownerOf(String store, String instanceId) {
        try {
            // Partitions follow the record key, the bare instance id, whatever the store key is.
            return streams.queryMetadataForKey(store, instanceId, Serdes.String().serializer());
        } catch (InvalidStateStoreException notRunning) {
            throw new StateUnavailableException(notRunning.getMessage(), notRunning);
        }
    }

    private static String url(HostInfo host) {
        return "http://" + host.host() + ":" + host.port();
    }
}
