package dev.sopline.engine.query;

import dev.sopline.engine.state.Instance;
import dev.sopline.engine.state.PendingStepStore;
import dev.sopline.engine.state.ProcessVersionStore;
import dev.sopline.engine.state.ProcessVersions;
import dev.sopline.engine.topology.EngineTopology;
import dev.sopline.schemas.command.InstanceKeys;
import dev.sopline.schemas.definition.StepType;
import dev.sopline.schemas.instance.CallbackOwner;
import dev.sopline.schemas.instance.InstanceState;
import dev.sopline.schemas.instance.InstanceView;
import dev.sopline.schemas.instance.PendingStep;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * Answers from this replica's own stores (interactive queries): the partitions it hosts, and the global stores every
 * replica holds whole. {@link RoutingEngineReader} combines replicas.
 */
public final class EngineQueries implements EngineReader {

    private final KafkaStreams streams;
    private final ServingState serving;

    public EngineQueries(KafkaStreams streams) {
        this.streams = streams;
        this.serving = new ServingState(streams);
    }

    /** Whether these stores can answer: restored once, and the replica still running (see {@link ServingState}). */
    public ServingState serving() {
        return serving;
    }

    @Override
    public Optional<InstanceView> instance(String workspace, String instanceId) {
        return instance(workspace, instanceId, null, false);
    }

    /**
     * The instance from this replica's copy of one partition (or of every partition it serves, when null). With a
     * partition named, a replica that does not serve it answers nothing (unavailable) rather than "absent". With
     * {@code includeStandbys}, a standby copy, or an active one still being restored, answers too: it may be behind.
     */
    public Optional<InstanceView> instance(String workspace, String instanceId, Integer partition, boolean includeStandbys) {
        StoreQueryParameters<ReadOnlyKeyValueStore<String, Instance>> parameters = StoreQueryParameters
                .fromNameAndType(EngineTopology.INSTANCES_STORE, QueryableStoreTypes.<String, Instance>keyValueStore());
        if (partition != null) {
            parameters = parameters.withPartition(partition);
        }
        if (includeStandbys) {
            parameters = parameters.enableStaleStores();
        }
        return Optional.ofNullable(streams.store(parameters).get(InstanceKeys.key(workspace, instanceId))).map(Instance::view);
    }

    @Override
    public Page<dev.sopline.schemas.instance.HistoryEntry> history(String workspace, String instanceId, String cursor, int limit) {
        return HistoryQueries.page(streams, workspace, instanceId, null, cursor, limit);
    }

    /** The history from this replica's copy of one partition, which it must serve as the active owner. */
    public Page<dev.sopline.schemas.instance.HistoryEntry> history(String workspace, String instanceId, int partition, String cursor, int limit) {
        return HistoryQueries.page(streams, workspace, instanceId, partition, cursor, limit);
    }

    /** The query endpoints ({@code host:port}) of every replica this one knows of from the group's metadata, itself included. */
    public List<String> replicaEndpoints() {
        return streams.metadataForAllStreamsClients().stream()
                .map(metadata -> metadata.hostInfo().host() + ":" + metadata.hostInfo().port())
                .distinct()
                .toList();
    }

    @Override
    public Page<InstanceView> instances(String workspace, InstanceFilter filter, String cursor, int limit) {
        String from = InstanceKeys.key(workspace, "");
        String to = InstanceKeys.key(workspace, cursor == null ? "~" : cursor);
        List<InstanceView> matching = new ArrayList<>();
        try (KeyValueIterator<String, Instance> iterator = store(EngineTopology.INSTANCES_STORE, Instance.class).range(from, to)) {
            iterator.forEachRemaining(entry -> {
                Instance instance = entry.value;
                if (!instance.id().equals(cursor)
                        && (filter.process() == null || filter.process().equals(instance.process()))
                        && (filter.state() == null || filter.state() == instance.state())) {
                    matching.add(instance.view());
                }
            });
        }
        return Page.of(matching, Orders.NEWEST_FIRST, limit, Orders::instanceCursor);
    }

    @Override
    public Page<PendingStep> pendingSteps(String workspace, PendingFilter filter, String cursor, int limit) {
        String prefix = PendingStepStore.workspacePrefix(workspace);
        String from = cursor == null ? prefix : prefix + cursor;
        List<PendingStep> matching = new ArrayList<>();
        try (KeyValueIterator<String, PendingStep> iterator = store(EngineTopology.PENDING_STORE, PendingStep.class).range(from, prefix + "~")) {
            iterator.forEachRemaining(entry -> {
                if (!entry.key.equals(from) && filter.matches(entry.value)) {
                    matching.add(entry.value);
                }
            });
        }
        return Page.of(matching, Orders.OLDEST_FIRST, limit, Orders::pendingCursor);
    }

    @Override
    public WorkspaceCounts counts(String workspace) {
        Map<String, Long> instances = new LinkedHashMap<>();
        for (InstanceState state : List.of(InstanceState.RUNNING, InstanceState.WAITING, InstanceState.COMPLETED, InstanceState.FAILED,
                InstanceState.CANCELLED)) {
            instances.put(state.wireName(), 0L);
        }
        try (KeyValueIterator<String, Instance> iterator = store(EngineTopology.INSTANCES_STORE, Instance.class)
                .range(InstanceKeys.key(workspace, ""), InstanceKeys.key(workspace, "~"))) {
            iterator.forEachRemaining(entry -> instances.merge(entry.value.state().wireName(), 1L, Long::sum));
        }
        Map<String, Long> pending = new LinkedHashMap<>();
        for (StepType type : StepType.values()) {
            pending.put(type.wireName(), 0L);
        }
        long escalations = 0;
        String prefix = PendingStepStore.workspacePrefix(workspace);
        try (KeyValueIterator<String, PendingStep> iterator = store(EngineTopology.PENDING_STORE, PendingStep.class).range(prefix, prefix + "~")) {
            while (iterator.hasNext()) {
                PendingStep step = iterator.next().value;
                pending.merge(step.type().wireName(), 1L, Long::sum);
                escalations += step.escalated() ? 1 : 0;
            }
        }
        return new WorkspaceCounts(instances, pending, escalations);
    }

    @Override
    public Optional<CallbackOwner> callbackOwner(String callbackId) {
        return Optional.ofNullable(store(EngineTopology.CALLBACKS_STORE, CallbackOwner.class).get(callbackId));
    }

    @Override
    public Optional<ProcessVersions> process(String workspace, String name) {
        return new ProcessVersionStore(store(EngineTopology.DEFINITIONS_STORE, ProcessVersions.class)).find(workspace, name);
    }

    @Override
    public List<ProcessVersions> processes(String workspace) {
        return new ProcessVersionStore(store(EngineTopology.DEFINITIONS_STORE, ProcessVersions.class)).list(workspace);
    }

    private <V> ReadOnlyKeyValueStore<String, V> store(String name, Class<V> valueType) {
        return streams.store(StoreQueryParameters.fromNameAndType(name, QueryableStoreTypes.<String, V>keyValueStore()));
    }
}
