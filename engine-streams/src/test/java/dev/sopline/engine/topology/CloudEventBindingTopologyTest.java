package dev.sopline.engine.topology;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sopline.engine.api.serde.JsonSerde;
import dev.sopline.engine.api.serde.RecordSerde;
import dev.sopline.engine.api.topic.EngineTopics;
import dev.sopline.engine.api.serde.SignedCommandSerializer;
import dev.sopline.engine.decision.CallbackIds;
import dev.sopline.schemas.command.Command;
import dev.sopline.schemas.command.RegisterProcess;
import dev.sopline.schemas.command.StartInstance;
import dev.sopline.schemas.definition.ProcessFiles;
import dev.sopline.schemas.definition.StepType;
import dev.sopline.schemas.event.StateChangeEvents;
import dev.sopline.schemas.event.StepReady;
import dev.sopline.schemas.event.StepReadyEvents;
import dev.sopline.schemas.topic.Topics;
import io.cloudevents.CloudEvent;
import io.cloudevents.kafka.CloudEventDeserializer;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The public topics as a CloudEvents SDK reads them: {@code sop.events} in the Kafka binding's structured mode,
 * {@code sop.steps.*} in binary mode, and in both the value that readers ignoring headers have always read.
 */
class CloudEventBindingTopologyTest {

    private static final String ID = "01JAAAAAAAAAAAAAAAAAAAAAAA";
    private static final String FORM_STEPS = Topics.stepReady(StepType.FORM);

    private final CloudEventDeserializer cloudEvents = new CloudEventDeserializer();
    @TempDir
    Path stateDir;
    private TopologyTestDriver driver;
    private TestInputTopic<String, Command> commands;
    private TestOutputTopic<String, byte[]> events;
    private TestOutputTopic<String, byte[]> formSteps;

    @BeforeEach
    void startEngine() throws Exception {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "engine-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        driver = new TopologyTestDriver(EngineTopology.build(new EngineConfig(Duration.ofMillis(100), new CallbackIds(EngineHarness.SECRET))),
                props, EngineHarness.START);
        commands = driver.createInputTopic(EngineTopics.COMMANDS, new StringSerializer(),
                new SignedCommandSerializer(new CallbackIds(EngineHarness.SECRET).commandSignature()));
        events = driver.createOutputTopic(Topics.EVENTS, new StringDeserializer(), new ByteArrayDeserializer());
        formSteps = driver.createOutputTopic(FORM_STEPS, new StringDeserializer(), new ByteArrayDeserializer());

        byte[] yaml = EngineHarness.resource("two-step.yaml");
        var loaded = (ProcessFiles.Loaded) ProcessFiles.load(yaml);
        send(new RegisterProcess("register", EngineHarness.WORKSPACE, loaded.file(), new String(yaml, StandardCharsets.UTF_8)));
        send(new StartInstance("start", EngineHarness.WORKSPACE, ID, "two-step", Map.of("title", "Q3 plan"), null, StartInstance.API, null));
    }

    @AfterEach
    void close() {
        driver.close();
    }

    private void send(Command command) {
        commands.pipeInput(command.key(), command, EngineHarness.START);
    }

    @Test
    void shouldWriteStateChangesInStructuredModeWhenAnInstanceStarts() {
        // when the instance started (before each)
        List<TestRecord<String, byte[]>> records = events.readRecordsToList();

        // then every record says it is a structured CloudEvent, and the SDK reads it as the envelope in its value
        assertThat(records).hasSize(3);
        for (TestRecord<String, byte[]> record : records) {
            assertThat(record.key()).isEqualTo(ID);
            assertThat(header(record, "content-type")).isEqualTo("application/cloudevents+json");
            CloudEvent event = cloudEvents.deserialize(Topics.EVENTS, record.headers(), record.value());
            assertThat(event).isEqualTo(StateChangeEvents.read(record.value()));
            assertThat(event.getSubject()).isEqualTo(ID);
        }
        assertThat(records).extracting(record -> cloudEvents.deserialize(Topics.EVENTS, record.headers(), record.value()).getType())
                .containsExactly(StateChangeEvents.INSTANCE_STATE_CHANGED, StateChangeEvents.STEP_STATE_CHANGED,
                        StateChangeEvents.INSTANCE_STATE_CHANGED);
    }

    @Test
    void shouldWriteStepReadyInBinaryModeWithTheValueWorkersAlreadyRead() {
        // when the instance started (before each)
        TestRecord<String, byte[]> record = formSteps.readRecord();

        // then the attributes are headers, and the data is the step-ready JSON that workers read from the value
        assertThat(header(record, "ce_specversion")).isEqualTo("1.0");
        assertThat(header(record, "ce_type")).isEqualTo(StepReadyEvents.STEP_READY);
        assertThat(header(record, "content-type")).isEqualTo("application/json");
        CloudEvent event = cloudEvents.deserialize(FORM_STEPS, record.headers(), record.value());
        assertThat(event.getType()).isEqualTo(StepReadyEvents.STEP_READY);
        assertThat(event.getSource()).isEqualTo(URI.create("/workspaces/default/processes/two-step"));
        assertThat(event.getSubject()).isEqualTo(ID);
        assertThat(event.getTime().toInstant()).isEqualTo(EngineHarness.START);
        assertThat(event.getData().toBytes()).isEqualTo(record.value());
        StepReady ready = new JsonSerde<>(StepReady.class).deserializer().deserialize(FORM_STEPS, record.value());
        assertThat(ready.stepId()).isEqualTo("draft");
        assertThat(ready.instanceId()).isEqualTo(ID);
    }

    @Test
    void shouldGiveTheStepReadyEventTheSameIdWhenItsDecisionIsWrittenAgain() {
        // given the first copy
        TestRecord<String, byte[]> first = formSteps.readRecord();

        // when the same attempt is written again, as a replay after a crash writes it
        StepReady ready = new JsonSerde<>(StepReady.class).deserializer().deserialize(FORM_STEPS, first.value());
        CloudEvent again = StepReadyEvents.of(ready, first.value());

        // then
        assertThat(again.getId()).isEqualTo(header(first, "ce_id"));
    }

    private static String header(TestRecord<String, byte[]> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}
