package dev.sopline.engine.topology;

import dev.sopline.engine.api.secret.CommandSignature;
import dev.sopline.engine.api.serde.JsonSerde;
import dev.sopline.engine.api.serde.RecordSerde;
import dev.sopline.engine.api.serde.SignedCommandSerializer;
import dev.sopline.engine.api.topic.EngineTopics;
import dev.sopline.engine.decision.CallbackIds;
import dev.sopline.engine.state.Instance;
import dev.sopline.schemas.command.CancelInstance;
import dev.sopline.schemas.command.Command;
import dev.sopline.schemas.command.CommandReply;
import dev.sopline.schemas.command.FireTimer;
import dev.sopline.schemas.command.InstanceKeys;
import dev.sopline.schemas.command.RegisterProcess;
import dev.sopline.schemas.command.ReleaseStart;
import dev.sopline.schemas.command.ReportStepResult;
import dev.sopline.schemas.command.ResolveCallback;
import dev.sopline.schemas.command.StartInstance;
import dev.sopline.schemas.command.SubmitStep;
import dev.sopline.schemas.definition.ProcessFiles;
import dev.sopline.schemas.definition.StepType;
import dev.sopline.schemas.event.StateChangeEvents;
import dev.sopline.schemas.event.StepReady;
import dev.sopline.schemas.event.StepResult;
import dev.sopline.schemas.instance.JudgmentDecision;
import dev.sopline.schemas.instance.PendingStep;
import dev.sopline.schemas.instance.StepError;
import dev.sopline.schemas.topic.Topics;
import dev.sopline.testing.TemporaryDirectories;
import io.cloudevents.CloudEvent;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.internals.WrappedStateStore;
import org.apache.kafka.streams.test.TestRecord;

/** Drives the production topology in {@link TopologyTestDriver} with a clock the test moves. */
final class EngineHarness implements AutoCloseable {

    static final String WORKSPACE = "default";
    static final Instant START = Instant.parse("2026-03-02T08:00:00Z");
    static final byte[] SECRET = "a test secret of thirty-two byte".getBytes(StandardCharsets.UTF_8);

    /** The driver's state directory, deleted when the driver is closed: tests make harnesses as they are built. */
    private final Path stateDir;
    private final TopologyTestDriver driver;
    private final AtomicInteger commandIds = new AtomicInteger();
    private final TestInputTopic<String, Command> commands;
    private final CommandSignature signature;
    private final TestOutputTopic<String, CommandReply> replies;
    private final TestOutputTopic<String, byte[]> events;
    private final TestOutputTopic<String, Command> followUps;
    private final Map<StepType, TestOutputTopic<String, StepReady>> ready = new EnumMap<>(StepType.class);
    private final Map<String, TestOutputTopic<String, StepReady>> automatedTopics = new java.util.TreeMap<>();
    private final Map<String, TestOutputTopic<String, byte[]>> changelogs = new java.util.HashMap<>();
    private final List<CloudEvent> seenEvents = new ArrayList<>();
    private final List<CommandReply> seenReplies = new ArrayList<>();
    /** Commands punctuation wrote through the command log and not delivered yet, and those delivered, for the test. */
    private final List<TestRecord<String, Command>> undelivered = new ArrayList<>();
    private final List<TestRecord<String, Command>> logged = new ArrayList<>();
    private final List<Runnable> failures = new ArrayList<>();
    private final List<TestRecord<String, Command>> writtenInTransaction = new ArrayList<>();
    private CommandLogging logging = CommandLogging.DELIVER;
    private int refused;
    private Instant now = START;

    /** What becomes of the commands punctuation writes outside the engine's transaction. */
    enum CommandLogging {
        /** Written and read back right after the punctuation, as the engine's producer and consumer would. */
        DELIVER,
        /** Written, but read back only when the test says so ({@link #deliverHeld}). */
        HOLD,
        /** Not written: the producer reports a failure. */
        FAIL,
        /** Not written: the producer refuses it at once, as when it has waited in vain for the broker. */
        REFUSE
    }

    EngineHarness() {
        this(new EngineConfig(Duration.ofMillis(100), new CallbackIds(SECRET)));
    }

    EngineHarness(EngineConfig config) {
        this(config, Map.of());
    }

    /** With {@code extraProps} added to the driver's Kafka Streams properties, as the engine's settings add them. */
    EngineHarness(EngineConfig config, Map<String, Object> extraProps) {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "engine-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        try {
            stateDir = Files.createTempDirectory("engine-harness");
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        // As the engine: a record it cannot read, or refuses, is logged and skipped.
        props.put(StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG, org.apache.kafka.streams.errors.LogAndContinueExceptionHandler.class);
        props.putAll(extraProps);
        EngineConfig withLog = config.commandLog() != null ? config : config.withCommandLog(this::log);
        driver = new TopologyTestDriver(EngineTopology.build(withLog), props, START);
        StringSerializer keys = new StringSerializer();
        signature = withLog.callbackIds().commandSignature();
        commands = driver.createInputTopic(EngineTopics.COMMANDS, keys, new SignedCommandSerializer(signature));
        StringDeserializer keyReader = new StringDeserializer();
        replies = driver.createOutputTopic(EngineTopics.REPLIES, keyReader, new RecordSerde<>(CommandReply.class).deserializer());
        events = driver.createOutputTopic(Topics.EVENTS, keyReader, new ByteArrayDeserializer());
        followUps = driver.createOutputTopic(EngineTopics.COMMANDS, keyReader, new RecordSerde<>(Command.class).deserializer());
        for (StepType type : StepType.values()) {
            ready.put(type, driver.createOutputTopic(Topics.stepReady(type), keyReader, new JsonSerde<>(StepReady.class).deserializer()));
        }
    }

    static byte[] resource(String name) {
        try (InputStream in = EngineHarness.class.getResourceAsStream("/processes/" + name)) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    CommandReply register(String resource) {
        return register(resource, resource(resource));
    }

    CommandReply register(String name, byte[] yaml) {
        ProcessFiles.LoadResult result = ProcessFiles.load(yaml);
        if (!(result instanceof ProcessFiles.Loaded loaded)) {
            throw new IllegalArgumentException(name + " is invalid: " + result);
        }
        RegisterProcess command = new RegisterProcess(nextCommandId(), WORKSPACE, loaded.file(), new String(yaml, StandardCharsets.UTF_8));
        return send(command);
    }

    CommandReply start(String instanceId, String process, Map<String, Object> inputs) {
        return send(startCommand(instanceId, process, inputs, null));
    }

    /** A start as the gateway sends it: naming the latest version it saw published, or null. */
    StartInstance startCommand(String instanceId, String process, Map<String, Object> inputs, String seenVersion) {
        return new StartInstance(nextCommandId(), WORKSPACE, instanceId, process, inputs, null, StartInstance.API, seenVersion);
    }

    CommandReply submit(String instanceId, String process, String stepId, Map<String, Object> outputs) {
        return send(new SubmitStep(nextCommandId(), WORKSPACE, instanceId, process, stepId, outputs, null));
    }

    CommandReply submitError(String instanceId, String process, String stepId, String code) {
        return send(new SubmitStep(nextCommandId(), WORKSPACE, instanceId, process, stepId, null, StepError.of(code, "it broke")));
    }

    CommandReply cancel(String instanceId, String process) {
        return send(new CancelInstance(nextCommandId(), WORKSPACE, instanceId, process));
    }

    CommandReply callback(String instanceId, String callbackId, Object payload) {
        return send(new ResolveCallback(nextCommandId(), WORKSPACE, instanceId, callbackId, payload));
    }

    void workerResult(String instanceId, String stepId, int attempt, Map<String, Object> outputs) {
        result(new StepResult(WORKSPACE, instanceId, stepId, attempt, outputs, null, null, "worker-1", now));
    }

    void workerError(String instanceId, String stepId, int attempt, String code) {
        result(new StepResult(WORKSPACE, instanceId, stepId, attempt, null, StepError.of(code, "failed"), null, "worker-1", now));
    }

    /** A worker's error that retrying cannot fix ({@code retryable: false}). */
    void workerPermanentError(String instanceId, String stepId, int attempt, String code) {
        result(new StepResult(WORKSPACE, instanceId, stepId, attempt, null, StepError.permanent(code, "refused"), null, "worker-1", now));
    }

    CommandReply submitPermanentError(String instanceId, String process, String stepId, String code) {
        return send(new SubmitStep(nextCommandId(), WORKSPACE, instanceId, process, stepId, null, StepError.permanent(code, "refused")));
    }

    /** The worker running this attempt says it is still at it. */
    void heartbeat(String instanceId, String stepId, int attempt) {
        result(StepResult.heartbeat(WORKSPACE, instanceId, stepId, attempt, "worker-1", now));
    }

    void agentResult(String instanceId, String stepId, int attempt, Map<String, Object> outputs, double confidence) {
        result(new StepResult(WORKSPACE, instanceId, stepId, attempt, outputs, null,
                new JudgmentDecision(JudgmentDecision.AGENT, confidence, "because", "test-model"), "agent", now));
    }

    /** A worker's result, as the result relay writes it to the command topic. */
    void result(StepResult result) {
        publish(new ReportStepResult(result));
    }

    CommandReply send(Command command) {
        publish(command);
        return reply(command.commandId()).orElseThrow(() -> new AssertionError("no reply to " + command));
    }

    /** Publishes a command without expecting an answer at once; {@link #reply} finds the answer when it comes. */
    void publish(Command command) {
        commands.pipeInput(command.key(), command, now);
    }

    /** Publishes a command as JSON, signed, as an engine of an earlier version or a client writing to the topic itself did. */
    void publishAsJson(Command command) {
        byte[] json = dev.sopline.schemas.json.Json.mapper().writeValueAsBytes(command);
        RecordHeaders headers = new RecordHeaders();
        signature.sign(headers, json);
        driver.createInputTopic(EngineTopics.COMMANDS, new StringSerializer(), new org.apache.kafka.common.serialization.ByteArraySerializer())
                .pipeInput(new TestRecord<>(command.key(), json, headers, now));
    }

    /** Publishes a command signed under the secret of {@code signer}'s engine. */
    void publishSignedBy(EngineHarness signer, Command command) {
        byte[] value = RecordSerde.write(command);
        RecordHeaders headers = new RecordHeaders();
        signer.signature.sign(headers, value);
        driver.createInputTopic(EngineTopics.COMMANDS, new StringSerializer(), new org.apache.kafka.common.serialization.ByteArraySerializer())
                .pipeInput(new TestRecord<>(command.key(), value, headers, now));
    }

    /** Publishes {@code value} as it is, unsigned, as any writer of the command topic could. */
    void publishRaw(String key, byte[] value) {
        driver.createInputTopic(EngineTopics.COMMANDS, new StringSerializer(), new org.apache.kafka.common.serialization.ByteArraySerializer())
                .pipeInput(key, value, now);
    }

    /** Publishes a command without the platform's signature, as a team's worker writing to the topic could. */
    void publishUnsigned(Command command) {
        driver.createInputTopic(EngineTopics.COMMANDS, new StringSerializer(), new org.apache.kafka.common.serialization.ByteArraySerializer())
                .pipeInput(command.key(), RecordSerde.write(command), now);
    }

    /** How many answers this command has had so far. */
    long repliesTo(String commandId) {
        seenReplies.addAll(replies.readValuesToList());
        return seenReplies.stream().filter(reply -> commandId.equals(reply.commandId())).count();
    }

    Optional<CommandReply> reply(String commandId) {
        seenReplies.addAll(replies.readValuesToList());
        return seenReplies.stream().filter(reply -> commandId.equals(reply.commandId())).findFirst();
    }

    /** Moves the clock, firing due timers as the engine's punctuation would. */
    void advance(Duration duration) {
        now = now.plus(duration);
        driver.advanceWallClockTime(duration);
        List<Runnable> failed = List.copyOf(failures);
        failures.clear();
        failed.forEach(Runnable::run);
        if (logging == CommandLogging.DELIVER) {
            deliverHeld();
        }
    }

    void logging(CommandLogging mode) {
        this.logging = mode;
    }

    /** Reads back the commands punctuation wrote and the engine has not read yet, in the order they were written. */
    void deliverHeld() {
        List<TestRecord<String, Command>> held = List.copyOf(undelivered);
        undelivered.clear();
        for (TestRecord<String, Command> record : held) {
            commands.pipeInput(record.key(), record.value(), record.getRecordTime());
        }
    }

    /**
     * Reads back the commands punctuation wrote, stamped {@code behind} earlier than written: as a broker whose clock
     * runs behind the engine host's stamps them on append.
     */
    void deliverHeldStampedEarlier(Duration behind) {
        List<TestRecord<String, Command>> held = List.copyOf(undelivered);
        undelivered.clear();
        for (TestRecord<String, Command> record : held) {
            commands.pipeInput(record.key(), record.value(), record.getRecordTime().minus(behind));
        }
    }

    /** How many commands the command log has refused at once so far. */
    int refused() {
        return refused;
    }

    /** The commands punctuation wrote that the engine has not read yet. */
    List<Command> held() {
        return undelivered.stream().map(TestRecord::value).toList();
    }

    /** The engine's command log: outside the topology, so a command is read only when the harness pipes it in. */
    private void log(Command command, Instant at, Consumer<Exception> failed) {
        if (logging == CommandLogging.REFUSE) {
            refused++;
            throw new TimeoutException("no metadata from the broker");
        }
        if (logging == CommandLogging.FAIL) {
            // As a producer's callback, not on the calling thread's stack.
            failures.add(() -> failed.accept(new TimeoutException("broker out of reach")));
            return;
        }
        TestRecord<String, Command> record = new TestRecord<>(command.key(), command, at);
        undelivered.add(record);
        logged.add(record);
    }

    Instance instance(String instanceId) {
        KeyValueStore<String, Instance> store = driver.getKeyValueStore(EngineTopology.INSTANCES_STORE);
        return store.get(InstanceKeys.key(WORKSPACE, instanceId));
    }

    List<PendingStep> pending() {
        KeyValueStore<String, PendingStep> store = driver.getKeyValueStore(EngineTopology.PENDING_STORE);
        List<PendingStep> found = new ArrayList<>();
        try (var iterator = store.all()) {
            iterator.forEachRemaining(entry -> found.add(entry.value));
        }
        return found;
    }

    /** The steps made ready of this type; automated ones from every team's topic, in the order of each topic. */
    List<StepReady> readySteps(StepType type) {
        if (type != StepType.AUTOMATED) {
            return ready.get(type).readValuesToList();
        }
        List<StepReady> found = new ArrayList<>(ready.get(type).readValuesToList());
        for (String topic : driver.producedTopicNames()) {
            if (Topics.AUTOMATED_STEPS.matcher(topic).matches() && !topic.equals(Topics.stepReady(type))) {
                found.addAll(readyOn(topic));
            }
        }
        return found;
    }

    /** The steps written to one topic since the last read of it. */
    List<StepReady> readyOn(String topic) {
        return automatedTopics.computeIfAbsent(topic, name -> driver.createOutputTopic(name, new StringDeserializer(),
                new JsonSerde<>(StepReady.class).deserializer())).readValuesToList();
    }

    /** Every CloudEvent on {@code sop.events} so far, in order. */
    List<CloudEvent> events() {
        for (KeyValue<String, byte[]> record : events.readKeyValuesToList()) {
            seenEvents.add(StateChangeEvents.read(record.value));
        }
        return List.copyOf(seenEvents);
    }

    /** The commands the engine wrote to its own topic other than timer fires and released starts: schedule starts. */
    List<Command> followUps() {
        return writtenCommands().stream()
                .filter(command -> !(command instanceof FireTimer) && !(command instanceof ReleaseStart)).toList();
    }

    /**
     * Every command the engine wrote to its own topic since the last call, through its topology or its command log,
     * with the time it wrote it.
     */
    List<TestRecord<String, Command>> writtenCommandRecords() {
        List<TestRecord<String, Command>> written = new ArrayList<>(writtenInTransaction);
        writtenInTransaction.clear();
        written.addAll(followUps.readRecordsToList());
        written.addAll(logged);
        logged.clear();
        written.sort(Comparator.comparing(TestRecord::getRecordTime));
        return written;
    }

    /** The commands the topology wrote to its own topic inside its transaction since the last call (kept for the above). */
    List<Command> writtenInTransaction() {
        writtenInTransaction.addAll(followUps.readRecordsToList());
        return writtenInTransaction.stream().map(TestRecord::value).toList();
    }

    List<Command> writtenCommands() {
        return writtenCommandRecords().stream().map(TestRecord::value).toList();
    }

    Instant now() {
        return now;
    }

    /** Writes a raw record to the published definitions topic, as an engine of an earlier format may have. */
    void publishDefinitionRecord(String key, byte[] value) {
        driver.createInputTopic(EngineTopics.DEFINITIONS, new StringSerializer(), new org.apache.kafka.common.serialization.ByteArraySerializer())
                .pipeInput(key, value, now);
    }

    /** The records written to the published definitions topic so far. */
    List<KeyValue<String, byte[]>> definitionRecords() {
        return driver.createOutputTopic(EngineTopics.DEFINITIONS, new StringDeserializer(), new ByteArrayDeserializer()).readKeyValuesToList();
    }

    /** The keys the engine wrote to a store's changelog since the last call for that store, deletions included. */
    List<String> changelogKeys(String storeName) {
        return changelogs.computeIfAbsent(storeName, name -> driver.createOutputTopic("engine-test-" + name + "-changelog",
                new StringDeserializer(), new ByteArrayDeserializer())).readRecordsToList().stream().map(TestRecord::key).toList();
    }

    /** The records written to a topic since they were last read, as bytes. */
    List<TestRecord<String, byte[]>> records(String topic) {
        return driver.createOutputTopic(topic, new StringDeserializer(), new ByteArrayDeserializer()).readRecordsToList();
    }

    KeyValueStore<String, Object> store(String name) {
        return driver.getKeyValueStore(name);
    }

    /** Writes a value's bytes as they are into a store, past its serde: a record as an earlier version stored it. */
    @SuppressWarnings("unchecked")
    void putStoredBytes(String storeName, String key, byte[] value) {
        KeyValueStore<Bytes, byte[]> bytes = ((WrappedStateStore<KeyValueStore<Bytes, byte[]>, String, Object>) (Object) driver.getKeyValueStore(storeName))
                .wrapped();
        bytes.put(Bytes.wrap(key.getBytes(StandardCharsets.UTF_8)), value);
    }

    private String nextCommandId() {
        return "cmd-" + commandIds.incrementAndGet();
    }

    @Override
    public void close() {
        try {
            driver.close();
        } finally {
            TemporaryDirectories.deleteNow(stateDir);
        }
    }

    /**
     * Closes a driver whose task failed: the driver still hands queued records of the global store to it on close,
     * which the failure closed already.
     */
    void closeAfterTaskFailure() {
        try {
            driver.close();
        } catch (InvalidStateStoreException expected) {
            // the failed task's stores are closed; nothing else is left to do
        } finally {
            TemporaryDirectories.deleteNow(stateDir);
        }
    }
}
