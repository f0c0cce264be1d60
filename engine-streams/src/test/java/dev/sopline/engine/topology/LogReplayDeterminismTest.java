package dev.sopline.engine.topology;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sopline.engine.api.serde.RecordSerde;
import dev.sopline.engine.api.topic.EngineTopics;
import dev.sopline.engine.decision.CallbackIds;
import dev.sopline.schemas.command.CancelInstance;
import dev.sopline.schemas.command.Command;
import dev.sopline.schemas.command.RegisterProcess;
import dev.sopline.schemas.command.ReportStepResult;
import dev.sopline.schemas.command.ResolveCallback;
import dev.sopline.schemas.command.StartInstance;
import dev.sopline.schemas.command.SubmitStep;
import dev.sopline.schemas.definition.ProcessFiles;
import dev.sopline.schemas.definition.StepType;
import dev.sopline.schemas.event.StepResult;
import dev.sopline.schemas.instance.StepError;
import dev.sopline.schemas.topic.Topics;
import dev.sopline.testing.TemporaryDirectories;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.function.Function;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Early handoff (replies and ready steps seen before the engine's transaction commits) is only safe if a replay of the
 * log after an abort decides exactly the same things. Random interleavings of starts, submits, cancels, callbacks,
 * worker results (repeats included), a late registration and clock moves that fire timers and release held starts
 * are played twice, and the command log the first play produced (inputs and the commands the engine wrote itself) is
 * fed to fresh engines without any clock: every output is the same, byte for byte.
 *
 * <p>Scenarios come from a {@link Random} with a fixed seed per case, so every run plays the same ones; a failing
 * case names its seed and its scenario, which is short enough to read without shrinking.
 */
class LogReplayDeterminismTest {

    private static final String WORKSPACE = "default";
    private static final Instant START = Instant.parse("2026-03-02T08:00:00Z");
    private static final List<String> IDS = List.of("01JR0000000000000000000001", "01JR0000000000000000000002", "01JR0000000000000000000003");
    private static final CallbackIds CALLBACK_IDS = new CallbackIds(EngineHarness.SECRET);
    private static final Serializer<Command> COMMANDS = new RecordSerde<>(Command.class).serializer();
    private static final List<String> COMPARED_TOPICS = compared();
    private static final List<String> PROCESSES = List.of("two-step", "billing", "identity");
    /** No version named, the one registered first, and one registered only during the scenario (the start waits). */
    private static final List<String> SEEN_VERSIONS = Arrays.asList(null, "1.0", "1.1");
    /** Within a retry's backoff, past it, past the 5 s a held start waits, past a step's timeout. */
    private static final List<Long> ADVANCES = List.of(100L, 400L, 1_000L, 2_100L, 5_100L, 3_700_000L);

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {42L, 31337L, 1009L})
    void shouldDecideTheSameFromTheSameLog(long seed) {
        List<Action> scenario = scenario(new Random(seed));
        Played first = Played.live(scenario);
        Played again = Played.live(scenario);
        Played replay = Played.replay(first.log());
        Played otherReplay = Played.replay(first.log());

        assertThat(again.outputs()).as("the same inputs twice, scenario %s", scenario).isEqualTo(first.outputs());
        assertThat(replay.outputs()).as("the committed command log on a fresh engine").isEqualTo(first.outputs());
        assertThat(otherReplay.outputs()).as("the committed command log on two fresh engines").isEqualTo(replay.outputs());
        assertThat(first.outputs().get(Topics.automatedSteps("billing"))).as("the scenario ran steps").isNotEmpty();
        assertThat(first.log()).as("the log holds timer fires and released starts the engine wrote")
                .anyMatch(record -> commandKind(record).equals("fire_timer"))
                .anyMatch(record -> commandKind(record).equals("release_start"));
    }

    // --- scenarios

    /** One thing that happens to the engine: a command it reads, or time passing. */
    sealed interface Action permits Start, Submit, Cancel, Callback, WorkerResult, RegisterNewVersion, Advance {
        void playOn(Engine engine, String commandId);
    }

    record Start(int who, String process, String seenVersion) implements Action {
        @Override
        public void playOn(Engine engine, String commandId) {
            engine.send(new StartInstance(commandId, WORKSPACE, IDS.get(who), process, startInputs(process), null, StartInstance.API, seenVersion));
        }
    }

    record Submit(int who, String step, Map<String, Object> outputs) implements Action {
        @Override
        public void playOn(Engine engine, String commandId) {
            engine.send(new SubmitStep(commandId, WORKSPACE, IDS.get(who), "two-step", step, outputs, null));
        }
    }

    record Cancel(int who, String process) implements Action {
        @Override
        public void playOn(Engine engine, String commandId) {
            engine.send(new CancelInstance(commandId, WORKSPACE, IDS.get(who), process));
        }
    }

    /** The third party calls back with the id the engine handed out (derived, so the test can name it). */
    record Callback(int who) implements Action {
        @Override
        public void playOn(Engine engine, String commandId) {
            engine.send(new ResolveCallback(commandId, WORKSPACE, IDS.get(who), CALLBACK_IDS.of(WORKSPACE, IDS.get(who), "verify", 1),
                    Map.of("status", "verified", "ref", "r")));
        }
    }

    /** As the result relay writes it; the same (instance, step, attempt) may come more than once. */
    record WorkerResult(int who, int attempt, boolean ok) implements Action {
        @Override
        public void playOn(Engine engine, String commandId) {
            engine.send(new ReportStepResult(new StepResult(WORKSPACE, IDS.get(who), "charge", attempt,
                    ok ? Map.of("receipt", "r-" + attempt) : null, ok ? null : StepError.of("declined", "no"), null, "worker-1", engine.now)));
        }
    }

    /** Starts that named 1.1 were held until now. */
    record RegisterNewVersion() implements Action {
        @Override
        public void playOn(Engine engine, String commandId) {
            engine.send(register("two-step-1.1.yaml", twoStepVersion("1.1")));
        }
    }

    record Advance(long millis) implements Action {
        @Override
        public void playOn(Engine engine, String commandId) {
            engine.advance(Duration.ofMillis(millis));
        }
    }

    /** Each instance is started first with its own process, then anything may happen, in any order. */
    private static List<Action> scenario(Random random) {
        List<Action> actions = new ArrayList<>(List.of(new Start(0, "two-step", null), new Start(1, "billing", "1.0"),
                new Start(2, "identity", null)));
        List<Function<Random, Action>> kinds = List.of(
                r -> new Start(r.nextInt(IDS.size()), pick(r, PROCESSES), pick(r, SEEN_VERSIONS)),
                r -> new Start(r.nextInt(IDS.size()), "two-step", "1.1"),
                r -> r.nextBoolean() ? new Submit(r.nextInt(IDS.size()), "draft", Map.of("text", "t"))
                        : new Submit(r.nextInt(IDS.size()), "review", Map.of("verdict", pick(r, List.of("accept", "reject")))),
                r -> new Cancel(r.nextInt(IDS.size()), pick(r, PROCESSES)),
                r -> new Callback(r.nextInt(IDS.size())),
                r -> new WorkerResult(r.nextInt(IDS.size()), 1 + r.nextInt(3), r.nextInt(3) == 0),
                r -> new WorkerResult(r.nextInt(IDS.size()), 1 + r.nextInt(3), r.nextInt(3) == 0),
                r -> new WorkerResult(r.nextInt(IDS.size()), 1 + r.nextInt(3), r.nextInt(3) == 0),
                r -> new RegisterNewVersion(),
                r -> new Advance(pick(r, ADVANCES)),
                r -> new Advance(pick(r, ADVANCES)),
                r -> new Advance(pick(r, ADVANCES)));
        int length = 30 + random.nextInt(30);
        for (int i = 0; i < length; i++) {
            actions.add(pick(random, kinds).apply(random));
        }
        return actions;
    }

    private static <T> T pick(Random random, List<T> choices) {
        return choices.get(random.nextInt(choices.size()));
    }

    // --- playing

    /** One command record as the engine read it from {@code sop.commands}. */
    record Logged(byte[] key, byte[] value, long timestamp) {}

    /**
     * @param log every command the engine read, in order: the inputs and the commands it wrote itself
     * @param outputs every record on each decided topic, in order, as {@code key|timestamp|value} in hex
     */
    record Played(List<Logged> log, Map<String, List<String>> outputs) {

        static Played live(List<Action> scenario) {
            try (Engine engine = new Engine()) {
                for (String process : List.of("two-step.yaml", "automated.yaml", "webhook.yaml")) {
                    engine.send(register(process, EngineHarness.resource(process)));
                }
                for (int i = 0; i < scenario.size(); i++) {
                    scenario.get(i).playOn(engine, "cmd-" + i);
                }
                return new Played(engine.log, engine.outputs());
            }
        }

        static Played replay(List<Logged> log) {
            try (Engine engine = new Engine()) {
                log.forEach(engine::pipe);
                return new Played(List.of(), engine.outputs());
            }
        }
    }

    private static String commandKind(Logged record) {
        return RecordSerde.read(record.value(), tools.jackson.databind.JsonNode.class).path("command").asString();
    }

    private static Map<String, Object> startInputs(String process) {
        return switch (process) {
            case "two-step" -> Map.of("title", "t");
            case "billing" -> Map.of("amount", 12);
            default -> Map.of();
        };
    }

    private static RegisterProcess register(String name, byte[] yaml) {
        if (!(ProcessFiles.load(yaml) instanceof ProcessFiles.Loaded loaded)) {
            throw new IllegalArgumentException(name + " is invalid");
        }
        return new RegisterProcess("register-" + name, WORKSPACE, loaded.file(), new String(yaml, StandardCharsets.UTF_8));
    }

    private static byte[] twoStepVersion(String version) {
        String yaml = new String(EngineHarness.resource("two-step.yaml"), StandardCharsets.UTF_8);
        return yaml.replace("version: \"1.0\"", "version: \"" + version + "\"").getBytes(StandardCharsets.UTF_8);
    }

    private static List<String> compared() {
        List<String> topics = new ArrayList<>(List.of(Topics.EVENTS, EngineTopics.REPLIES, EngineTopics.CALLBACKS, EngineTopics.DEFINITIONS));
        for (StepType type : StepType.values()) {
            topics.add(Topics.stepReady(type));
        }
        // The billing process's automated steps go to its team's topic.
        topics.add(Topics.automatedSteps("billing"));
        return topics;
    }

    /** The production topology in a test driver, every record kept as bytes. */
    private static final class Engine implements AutoCloseable {

        /** The driver's state directory, deleted when the engine is closed. */
        private final Path stateDir;
        private final TopologyTestDriver driver;
        private final TestInputTopic<byte[], byte[]> commands;
        private final TestOutputTopic<byte[], byte[]> written;
        private final Map<String, TestOutputTopic<byte[], byte[]>> decided = new LinkedHashMap<>();
        private final List<Logged> log = new ArrayList<>();
        private Instant now = START;

        Engine() {
            Properties props = new Properties();
            props.put(StreamsConfig.APPLICATION_ID_CONFIG, "replay-test");
            props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
            try {
                stateDir = Files.createTempDirectory("replay-test");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
            driver = new TopologyTestDriver(EngineTopology.build(new EngineConfig(Duration.ofMillis(100), CALLBACK_IDS)), props, START);
            // Each record signed as the platform's writers sign theirs, punctuation's own commands read back included.
            commands = driver.createInputTopic(EngineTopics.COMMANDS, new ByteArraySerializer(), new Serializer<byte[]>() {
                @Override
                public byte[] serialize(String topic, byte[] value) {
                    throw new UnsupportedOperationException("Expected headers for the signature");
                }

                @Override
                public byte[] serialize(String topic, org.apache.kafka.common.header.Headers headers, byte[] value) {
                    CALLBACK_IDS.commandSignature().sign(headers, value);
                    return value;
                }
            });
            written = driver.createOutputTopic(EngineTopics.COMMANDS, new ByteArrayDeserializer(), new ByteArrayDeserializer());
            for (String topic : COMPARED_TOPICS) {
                decided.put(topic, driver.createOutputTopic(topic, new ByteArrayDeserializer(), new ByteArrayDeserializer()));
            }
        }

        void send(Command command) {
            pipe(new Logged(command.key().getBytes(StandardCharsets.UTF_8), COMMANDS.serialize(EngineTopics.COMMANDS, command),
                    now.toEpochMilli()));
        }

        void pipe(Logged record) {
            log.add(record);
            commands.pipeInput(new TestRecord<>(record.key(), record.value(), Instant.ofEpochMilli(record.timestamp())));
            logWritten();
        }

        /** Punctuation runs: what it writes to the command topic is read back at once, and is part of the log. */
        void advance(Duration duration) {
            now = now.plus(duration);
            driver.advanceWallClockTime(duration);
            logWritten();
        }

        private void logWritten() {
            for (TestRecord<byte[], byte[]> record : written.readRecordsToList()) {
                log.add(new Logged(record.key(), record.value(), record.timestamp()));
            }
        }

        Map<String, List<String>> outputs() {
            Map<String, List<String>> outputs = new LinkedHashMap<>();
            HexFormat hex = HexFormat.of();
            decided.forEach((topic, output) -> outputs.put(topic, output.readRecordsToList().stream()
                    .map(record -> hex.formatHex(record.key()) + "|" + record.timestamp() + "|" + hex.formatHex(record.value()))
                    .toList()));
            return outputs;
        }

        @Override
        public void close() {
            try {
                driver.close();
            } finally {
                TemporaryDirectories.deleteNow(stateDir);
            }
        }
    }
}
