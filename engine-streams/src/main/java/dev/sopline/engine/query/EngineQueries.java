package dev.sopline.engine.query;

import dev.sopline.engine.state.Instance;
import dev.sopline.engine.state.PendingStepStore;
import dev.sopline.engine.state.ProcessVersions;
import dev.sopline.engine.topology.EngineTopology;
import dev.sopline.schemas.command.InstanceKeys;
import dev.sopline.schemas.instance.CallbackOwner;
import dev.sopline.schemas.instance.InstanceView;
import dev.sopline.schemas.instance.PendingStep;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * Answers the gateway's reads from this replica's stores (interactive queries). Each query reads the stores of every
 * partition this replica hosts; a deployment with several replicas asks each of them and merges.
 */
public final class EngineQueries {

    private final KafkaStreams streams;

    public EngineQueries(KafkaStreams streams) {
        this.streams = streams;
    }

    public Optional<InstanceView> instance(String workspace, String instanceId) {
        return Optional.ofNullable(store(EngineTopology.INSTANCES_STORE, Instance.class).get(InstanceKeys.key(workspace, instanceId)))
                .map(Instance::view);
    }

    /** Newest first; the cursor is the id of the last instance of the previous page. */
    public Page<InstanceView> instances(String workspace, InstanceFilter filter, String cursor, int limit) {
        String from = InstanceKeys.key(workspace, "");
        String to = InstanceKeys.key(workspace, cursor == null ? "~" : cursor);
        List<Instance> matching = new ArrayList<>();
        try (KeyValueIterator<String, Instance> iterator = store(EngineTopology.INSTANCES_STORE, Instance.class).range(from, to)) {
            iterator.forEachRemaining(entry -> {
                Instance instance = entry.value;
                if (!instance.id().equals(cursor)
                        && (filter.process() == null || filter.process().equals(instance.process()))
                        && (filter.state() == null || filter.state() == instance.state())) {
                    matching.add(instance);
                }
            });
        }
        matching.sort(Comparator.comparing(Instance::id).reversed());
        List<InstanceView> page = matching.stream().limit(limit).map(Instance::view).toList();
        String next = matching.size() > limit ? page.get(page.size() - 1).id() : null;
        return new Page<>(page, next);
    }

    /** Oldest first; the cursor is the position of the last entry of the previous page. */
    public Page<PendingStep> pendingSteps(String workspace, PendingFilter filter, String cursor, int limit) {
        String prefix = PendingStepStore.workspacePrefix(workspace);
        String from = cursor == null ? prefix : prefix + cursor;
        List<KeyValue<String, PendingStep>> matching = new ArrayList<>();
        try (KeyValueIterator<String, PendingStep> iterator = store(EngineTopology.PENDING_STORE, PendingStep.class).range(from, prefix + "~")) {
            iterator.forEachRemaining(entry -> {
                if (!entry.key.equals(from) && filter.matches(entry.value)) {
                    matching.add(entry);
                }
            });
        }
        matching.sort(Comparator.comparing(entry -> entry.key));
        List<KeyValue<String, PendingStep>> page = matching.stream().limit(limit).toList();
        String next = matching.size() > limit ? page.get(page.size() - 1).key.substring(prefix.length()) : null;
        return new Page<>(page.stream().map(entry -> entry.value).toList(), next);
    }

    /** Every instance of the workspace that matches, for counters. */
    public List<InstanceView> scan(String workspace, Predicate<InstanceView> filter) {
        List<InstanceView> found = new ArrayList<>();
        try (KeyValueIterator<String, Instance> iterator = store(EngineTopology.INSTANCES_STORE, Instance.class)
                .range(InstanceKeys.key(workspace, ""), InstanceKeys.key(workspace, "~"))) {
            iterator.forEachRemaining(entry -> {
                InstanceView view = entry.value.view();
                if (filter.test(view)) {
                    found.add(view);
                }
            });
        }
        return found;
    }

    public Optional<CallbackOwner> callbackOwner(String callbackId) {
        return Optional.ofNullable(store(EngineTopology.CALLBACKS_STORE, CallbackOwner.class).get(callbackId));
    }

    public Optional<ProcessVersions> process(String workspace, String name) {
        return Optional.ofNullable(store(EngineTopology.DEFINITIONS_STORE, ProcessVersions.class).get(InstanceKeys.processKey(workspace, name)));
    }

    /** Every process of the workspace, by name. */
    public List<ProcessVersions> processes(String workspace) {
        List<ProcessVersions> found = new ArrayList<>();
        try (KeyValueIterator<String, ProcessVersions> iterator = store(EngineTopology.DEFINITIONS_STORE, ProcessVersions.class)
                .range(InstanceKeys.processKey(workspace, ""), InstanceKeys.processKey(workspace, "~"))) {
            iterator.forEachRemaining(entry -> found.add(entry.value));
        }
        found.sort(Comparator.comparing(ProcessVersions::name));
        return found;
    }

    private <V> ReadOnlyKeyValueStore<String, V> store(String name, Class<V> valueType) {
        return streams.store(StoreQueryParameters.fromNameAndType(name, QueryableStoreTypes.<String, V>keyValueStore()));
    }
}
