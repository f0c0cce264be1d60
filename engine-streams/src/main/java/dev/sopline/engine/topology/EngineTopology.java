package dev.sopline.engine.topology;

import dev.sopline.engine.api.secret.CommandSignature;
import dev.sopline.engine.api.serde.RecordSerde;
import dev.sopline.engine.api.serde.SignedCommandSerializer;
import dev.sopline.engine.api.topic.EngineTopics;
import dev.sopline.engine.processor.CommandProcessor;
import dev.sopline.engine.processor.EventTopicsProcessor;
import dev.sopline.engine.processor.GlobalStoreUpdater;
import dev.sopline.engine.state.FinishedInstance;
import dev.sopline.engine.state.HistoryRecord;
import dev.sopline.engine.state.IdempotencyRecord;
import dev.sopline.engine.state.Instance;
import dev.sopline.engine.state.ProcessCounters;
import dev.sopline.engine.api.view.ProcessVersions;
import dev.sopline.engine.state.Timer;
import dev.sopline.engine.state.WaitingStart;
import dev.sopline.engine.api.view.WindowBucket;
import dev.sopline.schemas.command.Command;
import dev.sopline.schemas.command.CommandReply;
import dev.sopline.schemas.definition.StepType;
import dev.sopline.schemas.event.StepReady;
import dev.sopline.schemas.instance.CallbackOwner;
import dev.sopline.schemas.instance.PendingStep;
import dev.sopline.schemas.topic.Topics;
import java.util.List;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.processor.TopicNameExtractor;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

/**
 * The engine's topology. One processor reads one input, the command topic (keyed by instance id, or by
 * workspace/process), and owns the instances of its partitions; everything it decides leaves through the sinks below.
 * Worker results are not a second input: {@code ResultRelay} copies them into the command topic, so the log of each
 * partition is the only order decisions follow and a replay decides the same. Published process versions and
 * callback owners are global stores, so any task can read any of them.
 *
 * <p>Store and node names are part of the state on disk and in changelog topics: renaming a store loses its data,
 * which is why {@code EngineTopologyNamesTest} pins them.
 */
public final class EngineTopology {

    public static final String INSTANCES_STORE = "instances";
    public static final String PROCESSES_STORE = "processes";
    public static final String TIMERS_STORE = "timers";
    public static final String PENDING_STORE = "pending-steps";
    public static final String IDEMPOTENCY_STORE = "idempotency";
    public static final String WAITING_STARTS_STORE = "waiting-starts";
    public static final String DEFINITIONS_STORE = "definitions";
    public static final String CALLBACKS_STORE = "callbacks";
    public static final String INSTANCE_INDEX_STORE = "instance-index";
    public static final String FINISHED_STORE = "finished-instances";
    public static final String COUNTERS_STORE = "metric-counters";
    public static final String WINDOW_STORE = "metric-window";
    public static final String HISTORY_STORE = "instance-history";

    static final String COMMANDS_SOURCE = "commands-source";
    static final String COMMAND_PROCESSOR = "command-processor";
    public static final String EVENTS_PUBLISHER = "events-publisher";
    public static final String EVENTS_SINK = "events-sink";
    public static final String WORKSPACE_EVENTS_SINK = "workspace-events-sink";
    public static final String REPLIES_SINK = "replies-sink";
    public static final String DEFINITIONS_SINK = "definitions-sink";
    public static final String CALLBACKS_SINK = "callbacks-sink";
    public static final String COMMANDS_SINK = "commands-sink";
    /** Routes automated steps to their team's topic and creates those topics; see {@link AutomatedStepsRouter}. */
    public static final String AUTOMATED_STEPS_ROUTER = "steps-automated-router";
    static final String AUTOMATED_STEPS_SINK = "steps-automated-sink";

    /** The bytes of published-version records the definitions store's serde remembers parsed (ReadOnceSerde). */
    static final long PUBLISHED_RECORDS_PARSED_ONCE = 2 * 1024 * 1024;

    private EngineTopology() {}

    /**
     * The node a step-ready record of this type is forwarded to: a sink, or for automated steps the router in front of
     * the sink that picks each team's topic.
     */
    public static String stepReadySink(StepType type) {
        return type == StepType.AUTOMATED ? AUTOMATED_STEPS_ROUTER : "steps-" + type.wireName() + "-sink";
    }

    /** The command processor's stores, as the topology adds them (a test builds them without logging). */
    static List<StoreBuilder<?>> commandProcessorStores() {
        return List.of(
                // Not cached: every instance stays in the store, so a record cache that keeps instances is full after a few
                // minutes of work, and a full cache evicts (and so writes out) the counters and window buckets at almost
                // every write instead of once per commit (docs/decisions.md, "A record cache for the keys that are rewritten").
                onDisk(INSTANCES_STORE, new RecordSerde<>(Instance.class)),
                onDisk(PROCESSES_STORE, new RecordSerde<>(ProcessVersions.class)),
                onDisk(TIMERS_STORE, new RecordSerde<>(Timer.class)),
                // Indexes derived from the instances, written with them in one transaction: on disk and logged, so a task that
                // starts finds them ready instead of scanning every instance (InstanceIndexes).
                // Not cached: a range read through the cache can return an entry deleted before the read began, when a
                // commit moves the deletion from the cache to RocksDB while the range is open (docs/decisions.md,
                // "One point in time per page of the pending feed"). An entry is written once and deleted once anyway.
                onDisk(PENDING_STORE, new RecordSerde<>(PendingStep.class)),
                // Not cached: its keys are new with each instance and state, so the cache would merge almost no writes, and
                // keeping them sorted in it cost the stream thread more than writing them through (docs/decisions.md,
                // "Cheaper work per instance").
                onDisk(INSTANCE_INDEX_STORE, Serdes.String()),
                onDisk(FINISHED_STORE, new RecordSerde<>(FinishedInstance.class)),
                // Cached: a few keys per workspace, rewritten by every instance that starts or ends (the counters also when its
                // pending steps change); the cache folds a commit interval's writes of a key into one record, and holds nothing else.
                onDisk(COUNTERS_STORE, new RecordSerde<>(ProcessCounters.class)).withCachingEnabled(),
                onDisk(WINDOW_STORE, new RecordSerde<>(WindowBucket.class)).withCachingEnabled(),
                onDisk(IDEMPOTENCY_STORE, new RecordSerde<>(IdempotencyRecord.class)),
                onDisk(WAITING_STARTS_STORE, new RecordSerde<>(WaitingStart.class)),
                onDisk(HISTORY_STORE, HistoryRecord.serde()));
    }

    /** A RocksDB store keyed by text, logged to its changelog unless the caller says otherwise. */
    private static <V> StoreBuilder<KeyValueStore<String, V>> onDisk(String name, Serde<V> values) {
        return Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(name), Serdes.String(), values);
    }

    public static Topology build(EngineConfig config) {
        Topology topology = new Topology();
        StringDeserializer keys = new StringDeserializer();
        StringSerializer keyWriter = new StringSerializer();

        // Read for every start, written once per version: each distinct record is parsed once (ReadOnceSerde).
        topology.addGlobalStore(
                onDisk(DEFINITIONS_STORE, new ReadOnceSerde<>(ProcessVersions.class, PUBLISHED_RECORDS_PARSED_ONCE)).withLoggingDisabled(),
                "definitions-source", keys, new RecordSerde<>(ProcessVersions.class).deserializer(), EngineTopics.DEFINITIONS,
                "definitions-updater", () -> new GlobalStoreUpdater<>(DEFINITIONS_STORE));
        topology.addGlobalStore(
                onDisk(CALLBACKS_STORE, new RecordSerde<>(CallbackOwner.class)).withLoggingDisabled(),
                "callbacks-source", keys, new RecordSerde<>(CallbackOwner.class).deserializer(), EngineTopics.CALLBACKS,
                "callbacks-updater", () -> new GlobalStoreUpdater<>(CALLBACKS_STORE));

        CommandSignature signature = config.callbackIds().commandSignature();
        topology.addSource(COMMANDS_SOURCE, keys, new VerifiedCommands(signature, config.unsignedCommandsAccepted()), EngineTopics.COMMANDS);
        topology.addProcessor(COMMAND_PROCESSOR, () -> new CommandProcessor(config),
                COMMANDS_SOURCE);
        commandProcessorStores().forEach(store -> topology.addStateStore(store, COMMAND_PROCESSOR));

        // Public topics follow the CloudEvents Kafka binding: sop.events in structured mode, sop.steps.* in binary mode
        // (docs/decisions.md, "Events for subscribers").
        topology.addProcessor(EVENTS_PUBLISHER, EventTopicsProcessor::new, COMMAND_PROCESSOR);
        topology.addSink(EVENTS_SINK, Topics.EVENTS, keyWriter, new StructuredCloudEventSerializer(), EVENTS_PUBLISHER);
        topology.addSink(WORKSPACE_EVENTS_SINK, WorkspaceEvent.topicName(), keyWriter, WorkspaceEvent.serializer(), EVENTS_PUBLISHER);
        for (StepType type : StepType.values()) {
            if (type != StepType.AUTOMATED) {
                topology.addSink(stepReadySink(type), Topics.stepReady(type), keyWriter, new StepReadySerializer(), COMMAND_PROCESSOR);
            }
        }
        // Automated steps go to the topic of their run's namespace, one per team (docs/decisions.md, "A topic per team").
        topology.addProcessor(AUTOMATED_STEPS_ROUTER, AutomatedStepsRouter::new, COMMAND_PROCESSOR);
        TopicNameExtractor<String, StepReady> byNamespace = (key, ready, context) -> Topics.automatedStepsFor(ready.run());
        topology.addSink(AUTOMATED_STEPS_SINK, byNamespace, keyWriter, new StepReadySerializer(), AUTOMATED_STEPS_ROUTER);
        topology.addSink(REPLIES_SINK, EngineTopics.REPLIES, keyWriter, new RecordSerde<>(CommandReply.class).serializer(), COMMAND_PROCESSOR);
        topology.addSink(DEFINITIONS_SINK, EngineTopics.DEFINITIONS, keyWriter, new RecordSerde<>(ProcessVersions.class).serializer(),
                COMMAND_PROCESSOR);
        topology.addSink(CALLBACKS_SINK, EngineTopics.CALLBACKS, keyWriter, new RecordSerde<>(CallbackOwner.class).serializer(),
                COMMAND_PROCESSOR);
        topology.addSink(COMMANDS_SINK, EngineTopics.COMMANDS, keyWriter, new SignedCommandSerializer(signature), COMMAND_PROCESSOR);
        return topology;
    }
}
