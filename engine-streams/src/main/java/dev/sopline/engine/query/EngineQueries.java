package dev.sopline.engine.query;

import dev.sopline.engine.api.query.EngineReader;
import dev.sopline.engine.api.query.InstanceFilter;
import dev.sopline.engine.api.query.Page;
import dev.sopline.engine.api.query.StateUnavailableException;
import dev.sopline.engine.api.query.PendingFilter;
import dev.sopline.engine.api.query.WorkspaceCounts;
import dev.sopline.engine.state.Instance;
import dev.sopline.engine.state.InstanceListIndex;
import dev.sopline.engine.state.MetricCounters;
import dev.sopline.engine.state.PendingStepStore;
import dev.sopline.engine.state.ProcessCounters;
import dev.sopline.engine.state.ProcessVersionStore;
import dev.sopline.engine.api.view.ProcessVersions;
import dev.sopline.engine.state.Timer;
import dev.sopline.engine.api.view.WindowBucket;
import dev.sopline.engine.state.WindowBuckets;
import dev.sopline.engine.api.topic.EngineTopics;
import dev.sopline.engine.topology.EngineTopology;
import dev.sopline.schemas.command.InstanceKeys;
import dev.sopline.schemas.instance.CallbackOwner;
import dev.sopline.schemas.instance.InstanceView;
import dev.sopline.schemas.instance.PendingStep;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.TaskMetadata;
import org.apache.kafka.streams.ThreadMetadata;
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
        return readable(() -> {
            StoreQueryParameters<ReadOnlyKeyValueStore<String, Instance>> parameters = StoreQueryParameters
                    .fromNameAndType(EngineTopology.INSTANCES_STORE, QueryableStoreTypes.<String, Instance>keyValueStore());
            if (partition != null) {
                parameters = parameters.withPartition(partition);
            }
            if (includeStandbys) {
                parameters = parameters.enableStaleStores();
            }
            return Optional.ofNullable(streams.store(parameters).get(InstanceKeys.key(workspace, instanceId))).map(Instance::view);
        });
    }

    @Override
    public Page<dev.sopline.schemas.instance.HistoryEntry> history(String workspace, String instanceId, String cursor, int limit) {
        return readable(() -> HistoryQueries.page(streams, workspace, instanceId, null, cursor, limit));
    }

    /** The history from this replica's copy of one partition, which it must serve as the active owner. */
    public Page<dev.sopline.schemas.instance.HistoryEntry> history(String workspace, String instanceId, int partition, String cursor, int limit) {
        return readable(() -> HistoryQueries.page(streams, workspace, instanceId, partition, cursor, limit));
    }

    /** The query endpoints ({@code host:port}) of every replica this one knows of from the group's metadata, itself included. */
    public List<String> replicaEndpoints() {
        return streams.metadataForAllStreamsClients().stream()
                .map(metadata -> metadata.hostInfo().host() + ":" + metadata.hostInfo().port())
                .distinct()
                .toList();
    }

    /**
     * Newest first, from the list index ({@link InstanceListIndex}): each partition this replica serves gives its own
     * newest {@code limit + 1} matching entries, so a page reads about {@code limit} entries per partition whatever the
     * workspace holds.
     */
    @Override
    public Page<InstanceView> instances(String workspace, InstanceFilter filter, String cursor, int limit) {
        return instances(workspace, filter, cursor, limit, activeCommandPartitions(), false);
    }

    /**
     * The same from this replica's copies of the given partitions only. With {@code stale}, a standby copy (or an active
     * one still being restored) answers too, and the page is marked stale; a partition this replica holds no copy of
     * makes the read unavailable ({@link StateUnavailableException}).
     */
    public Page<InstanceView> instances(String workspace, InstanceFilter filter, String cursor, int limit, Collection<Integer> partitions,
                                        boolean stale) {
        return readable(() -> {
            // Each view's data, as counted against its instance's budget: what its JSON mostly is.
            Map<InstanceView, Long> sizes = new IdentityHashMap<>();
            Page.Sized<InstanceView> page = new Page.Sized<>(Orders.NEWEST_FIRST, limit, Orders::instanceCursor, view -> sizes.getOrDefault(view, 0L));
            for (int partition : partitions) {
                ReadOnlyKeyValueStore<String, String> index = store(EngineTopology.INSTANCE_INDEX_STORE, partition, stale);
                ReadOnlyKeyValueStore<String, Instance> instances = store(EngineTopology.INSTANCES_STORE, partition, stale);
                List<String> ids = InstanceListIndex.newestIds(index, workspace, filter.process(), filter.state(), cursor, limit + 1);
                List<InstanceView> part = new ArrayList<>();
                long bytes = 0;
                for (String id : ids) {
                    if (bytes >= Page.MAX_BYTES) {
                        break; // the page ends by this part's last entry at the latest: reading more would be waste
                    }
                    Instance instance = instances.get(InstanceKeys.key(workspace, id));
                    if (instance != null) {
                        InstanceView view = instance.view();
                        sizes.put(view, instance.dataBytes());
                        part.add(view);
                        bytes += instance.dataBytes();
                    }
                }
                page.addPart(part, bytes >= Page.MAX_BYTES && !part.isEmpty() && !part.get(part.size() - 1).id().equals(ids.get(ids.size() - 1)));
            }
            return page.page().markedStale(stale);
        });
    }

    /** Oldest first, from the pending index; each partition gives its own oldest {@code limit + 1} matching entries. */
    @Override
    public Page<PendingStep> pendingSteps(String workspace, PendingFilter filter, String cursor, int limit) {
        return pendingSteps(workspace, filter, cursor, limit, activeCommandPartitions(), false);
    }

    /** The same from this replica's copies of the given partitions only; {@code stale} as for instances. */
    public Page<PendingStep> pendingSteps(String workspace, PendingFilter filter, String cursor, int limit, Collection<Integer> partitions,
                                          boolean stale) {
        return readable(() -> {
            Page.Sized<PendingStep> page = new Page.Sized<>(Orders.OLDEST_FIRST, limit, Orders::pendingCursor, PendingStepStore::dataBytes);
            for (int partition : partitions) {
                PendingStepStore.Part part = PendingStepStore.oldest(store(EngineTopology.PENDING_STORE, partition, stale), workspace,
                        filter::matches, cursor, limit + 1, Page.MAX_BYTES);
                page.addPart(part.steps(), part.cut());
            }
            return page.page().markedStale(stale);
        });
    }

    /** From the counters the processor keeps per process: one record per process of the workspace, no instance read. */
    @Override
    public WorkspaceCounts counts(String workspace) {
        return readable(() -> ProcessCounters.total(MetricCounters.ofWorkspace(store(EngineTopology.COUNTERS_STORE, ProcessCounters.class), workspace)));
    }

    /** The counters of the given partitions only, each counted once; {@code stale} as for instances. */
    public WorkspaceCounts counts(String workspace, Collection<Integer> partitions, boolean stale) {
        return readable(() -> {
            List<ProcessCounters> counters = new ArrayList<>();
            for (int partition : partitions) {
                counters.addAll(MetricCounters.ofWorkspace(store(EngineTopology.COUNTERS_STORE, partition, stale), workspace));
            }
            return ProcessCounters.total(counters);
        });
    }

    /** The counters of every workspace this replica holds, for the engine's gauges. */
    public WorkspaceCounts localTotals() {
        return readable(() -> ProcessCounters.total(MetricCounters.all(store(EngineTopology.COUNTERS_STORE, ProcessCounters.class))));
    }

    @Override
    public WindowBucket window(String workspace, Instant from, Instant to) {
        return readable(() -> WindowBuckets.sum(store(EngineTopology.WINDOW_STORE, WindowBucket.class), workspace, from, to));
    }

    /** The window of the given partitions only, summed; {@code stale} as for instances. */
    public WindowBucket window(String workspace, Instant from, Instant to, Collection<Integer> partitions, boolean stale) {
        return readable(() -> {
            WindowBucket total = WindowBucket.empty();
            for (int partition : partitions) {
                total = total.plus(WindowBuckets.sum(store(EngineTopology.WINDOW_STORE, partition, stale), workspace, from, to));
            }
            return total;
        });
    }

    /** Timers of this replica's partitions that are due and not fired yet, counted up to {@code max}. */
    public long timersDue(Instant now, long max) {
        return readable(() -> {
            long due = 0;
            try (KeyValueIterator<String, Timer> iterator = store(EngineTopology.TIMERS_STORE, Timer.class).range(null, Timer.upperBoundKey(now))) {
                while (iterator.hasNext() && due < max) {
                    iterator.next();
                    due++;
                }
            }
            return due;
        });
    }

    /** The partitions of the command topic this replica's threads are active for. */
    public List<Integer> activeCommandPartitions() {
        List<Integer> partitions = new ArrayList<>();
        for (ThreadMetadata thread : streams.metadataForLocalThreads()) {
            for (TaskMetadata task : thread.activeTasks()) {
                for (TopicPartition topicPartition : task.topicPartitions()) {
                    if (topicPartition.topic().equals(EngineTopics.COMMANDS)) {
                        partitions.add(topicPartition.partition());
                    }
                }
            }
        }
        return partitions;
    }

    @Override
    public Optional<CallbackOwner> callbackOwner(String callbackId) {
        return readable(() -> Optional.ofNullable(store(EngineTopology.CALLBACKS_STORE, CallbackOwner.class).get(callbackId)));
    }

    @Override
    public Optional<ProcessVersions> process(String workspace, String name) {
        return readable(() -> new ProcessVersionStore(store(EngineTopology.DEFINITIONS_STORE, ProcessVersions.class)).find(workspace, name));
    }

    @Override
    public Optional<ProcessVersions.PublishedVersion> latestVersion(String workspace, String name) {
        return readable(() -> new ProcessVersionStore(store(EngineTopology.DEFINITIONS_STORE, ProcessVersions.class)).latest(workspace, name));
    }

    @Override
    public List<ProcessVersions> processes(String workspace) {
        return readable(() -> new ProcessVersionStore(store(EngineTopology.DEFINITIONS_STORE, ProcessVersions.class)).list(workspace));
    }

    /**
     * Runs a read of this replica's stores, saying "cannot answer now" in the engine's own terms: Kafka Streams throws
     * {@link InvalidStateStoreException} while a store migrates, restores or closes, at the lookup or in the middle of
     * a read, and readers of the engine ({@code engine-api}) do not compile against Kafka Streams.
     */
    private static <T> T readable(Supplier<T> read) {
        try {
            return read.get();
        } catch (InvalidStateStoreException e) {
            throw new StateUnavailableException(e.getMessage(), e);
        }
    }

    private <V> ReadOnlyKeyValueStore<String, V> store(String name, Class<V> valueType) {
        return streams.store(StoreQueryParameters.fromNameAndType(name, QueryableStoreTypes.<String, V>keyValueStore()));
    }

    /** One partition's copy of a store; with {@code stale}, a standby or still-restoring copy too. */
    private <V> ReadOnlyKeyValueStore<String, V> store(String name, int partition, boolean stale) {
        StoreQueryParameters<ReadOnlyKeyValueStore<String, V>> parameters = StoreQueryParameters
                .fromNameAndType(name, QueryableStoreTypes.<String, V>keyValueStore())
                .withPartition(partition);
        return streams.store(stale ? parameters.enableStaleStores() : parameters);
    }
}
