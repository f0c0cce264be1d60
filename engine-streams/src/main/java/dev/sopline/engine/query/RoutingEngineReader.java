package dev.sopline.engine.query;

import dev.sopline.engine.state.ProcessVersions;
import dev.sopline.engine.topology.EngineTopology;
import dev.sopline.schemas.instance.CallbackOwner;
import dev.sopline.schemas.instance.InstanceView;
import dev.sopline.schemas.instance.PendingStep;
import dev.sopline.engine.state.WindowBucket;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.StreamsMetadata;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.HostInfo;
import tools.jackson.core.type.TypeReference;

/**
 * Routes each query to the replicas that own the data, using the {@code application.server} each replica
 * advertises: a lookup by instance id goes to the one active owner of its partition, a list goes to every replica
 * and the pages are merged. Global stores (definitions, callbacks) are complete on every replica and read locally.
 * Without an advertised endpoint this replica is taken to be the only one.
 */
public final class RoutingEngineReader implements EngineReader {

    private final KafkaStreams streams;
    private final HostInfo self;
    private final EngineQueries local;
    private final ReplicaClient replicas = new ReplicaClient();

    public RoutingEngineReader(KafkaStreams streams, HostInfo self, EngineQueries local) {
        this.streams = streams;
        this.self = self;
        this.local = local;
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
            return local.instance(workspace, instanceId).map(Answer::fresh);
        }
        // Partitions follow the record key, the bare instance id, whatever the store key is.
        KeyQueryMetadata owner = streams.queryMetadataForKey(EngineTopology.INSTANCES_STORE, instanceId, Serdes.String().serializer());
        if (owner == null || owner.equals(KeyQueryMetadata.NOT_AVAILABLE)) {
            // Mid-rebalance nobody is named owner: any copy here may answer, but its "absent" would be a guess.
            return Optional.of(fromStandbys(workspace, instanceId, null, Set.of(),
                    new InvalidStateStoreException("No owner is known for instance " + instanceId + " during a rebalance")));
        }
        int partition = owner.partition();
        try {
            if (owner.activeHost().equals(self)) {
                return local.instance(workspace, instanceId, partition, false).map(Answer::fresh);
            }
            return replicas.get(url(owner.activeHost()), QueryServer.LOCAL_INSTANCE,
                    Map.of("workspace", workspace, "id", instanceId, "partition", partition), new TypeReference<InstanceView>() {})
                    .map(Answer::fresh);
        } catch (InvalidStateStoreException ownerUnavailable) {
            return Optional.of(fromStandbys(workspace, instanceId, partition, owner.standbyHosts(), ownerUnavailable));
        }
    }

    /** The first copy that holds the instance answers; a copy without it may be behind, so that is no answer. */
    private Answer<InstanceView> fromStandbys(String workspace, String instanceId, Integer partition, Set<HostInfo> standbys,
                                              InvalidStateStoreException cause) {
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
            } catch (InvalidStateStoreException standbyUnavailable) {
                cause.addSuppressed(standbyUnavailable);
            }
        }
        throw cause;
    }

    @Override
    public Page<InstanceView> instances(String workspace, InstanceFilter filter, String cursor, int limit) {
        Map<String, Object> parameters = QueryParameters.page(QueryParameters.of(filter), workspace, cursor, limit);
        List<Page<InstanceView>> pages = fanOut(
                () -> local.instances(workspace, filter, cursor, limit),
                host -> replicas.get(url(host), QueryServer.LOCAL_INSTANCES, parameters, new TypeReference<Page<InstanceView>>() {}));
        return Page.merge(pages, Orders.NEWEST_FIRST, limit, Orders::instanceCursor);
    }

    @Override
    public Page<PendingStep> pendingSteps(String workspace, PendingFilter filter, String cursor, int limit) {
        Map<String, Object> parameters = QueryParameters.page(QueryParameters.of(filter), workspace, cursor, limit);
        List<Page<PendingStep>> pages = fanOut(
                () -> local.pendingSteps(workspace, filter, cursor, limit),
                host -> replicas.get(url(host), QueryServer.LOCAL_PENDING, parameters, new TypeReference<Page<PendingStep>>() {}));
        return Page.merge(pages, Orders.OLDEST_FIRST, limit, Orders::pendingCursor);
    }

    /** From the active owner of the instance's partition, the only one that holds its history; unavailable meanwhile. */
    @Override
    public Page<dev.sopline.schemas.instance.HistoryEntry> history(String workspace, String instanceId, String cursor, int limit) {
        if (self == null) {
            return local.history(workspace, instanceId, cursor, limit);
        }
        KeyQueryMetadata owner = streams.queryMetadataForKey(EngineTopology.HISTORY_STORE, instanceId, Serdes.String().serializer());
        if (owner == null || owner.equals(KeyQueryMetadata.NOT_AVAILABLE)) {
            throw new InvalidStateStoreException("No owner is known for instance " + instanceId + " during a rebalance");
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
        List<WorkspaceCounts> parts = fanOut(() -> local.counts(workspace),
                host -> replicas.get(url(host), QueryServer.LOCAL_COUNTS, Map.of("workspace", workspace), new TypeReference<WorkspaceCounts>() {}));
        return parts.stream().reduce(WorkspaceCounts::plus).orElseThrow();
    }

    @Override
    public WindowBucket window(String workspace, Instant from, Instant to) {
        List<WindowBucket> parts = fanOut(() -> local.window(workspace, from, to),
                host -> replicas.get(url(host), QueryServer.LOCAL_WINDOW, QueryParameters.window(workspace, from, to),
                        new TypeReference<WindowBucket>() {}));
        return parts.stream().reduce(WindowBucket::plus).orElseThrow();
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
    public List<ProcessVersions> processes(String workspace) {
        return local.processes(workspace);
    }

    private <T> List<T> fanOut(java.util.function.Supplier<T> here, Function<HostInfo, Optional<T>> there) {
        List<T> results = new ArrayList<>();
        results.add(here.get());
        if (self == null) {
            return results;
        }
        for (HostInfo host : otherHosts()) {
            there.apply(host).ifPresent(results::add);
        }
        return results;
    }

    private Set<HostInfo> otherHosts() {
        Set<HostInfo> hosts = new LinkedHashSet<>();
        for (StreamsMetadata metadata : streams.metadataForAllStreamsClients()) {
            if (!metadata.hostInfo().equals(self) && metadata.stateStoreNames().contains(EngineTopology.INSTANCES_STORE)) {
                hosts.add(metadata.hostInfo());
            }
        }
        return hosts;
    }

    private static String url(HostInfo host) {
        return "http://" + host.host() + ":" + host.port();
    }
}
