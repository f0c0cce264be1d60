package dev.sopline.engine.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import dev.sopline.engine.api.topic.EngineTopics;
import dev.sopline.engine.api.serde.JsonSerde;
import dev.sopline.engine.api.serde.RecordSerde;
import dev.sopline.schemas.command.Command;
import dev.sopline.schemas.command.ReportStepResult;
import dev.sopline.schemas.event.StepResult;
import dev.sopline.schemas.topic.Topics;
import dev.sopline.testing.CapturedLog;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Worker results reach the engine as commands on its one log, keyed by instance, at the time they were published. */
class ResultRelayTest {

    private static final Instant PUBLISHED = Instant.parse("2026-03-02T08:00:01.234Z");

    private final TopologyTestDriver driver = new TopologyTestDriver(ResultRelay.topology(), properties());
    private final TestInputTopic<String, StepResult> results = driver.createInputTopic(Topics.STEP_RESULTS, new StringSerializer(),
            new JsonSerde<>(StepResult.class).serializer());
    private final TestOutputTopic<String, Command> commands = driver.createOutputTopic(EngineTopics.COMMANDS, new StringDeserializer(),
            new RecordSerde<>(Command.class).deserializer());

    @AfterEach
    void close() {
        driver.close();
    }

    @Test
    void shouldRelayEachResultAsAReportStepResultCommandKeyedByInstance() {
        StepResult result = new StepResult("default", "01JA", "charge", 2, Map.of("receipt", "r"), null, null, "worker-1", PUBLISHED);

        results.pipeInput(new TestRecord<>("whatever-the-worker-used", result, PUBLISHED));

        List<TestRecord<String, Command>> relayed = commands.readRecordsToList();
        assertThat(relayed).hasSize(1);
        assertThat(relayed.get(0).key()).isEqualTo("01JA");
        assertThat(relayed.get(0).value()).isEqualTo(new ReportStepResult(result));
        assertThat(relayed.get(0).getRecordTime()).isEqualTo(PUBLISHED);
    }

    @Test
    void shouldRelayARepeatedResultAgainForTheEngineToIgnore() {
        StepResult result = new StepResult("default", "01JA", "charge", 1, Map.of(), null, null, "worker-1", PUBLISHED);

        results.pipeInput("01JA", result, PUBLISHED);
        results.pipeInput("01JA", result, PUBLISHED);

        assertThat(commands.readValuesToList()).containsExactly(new ReportStepResult(result), new ReportStepResult(result));
    }

    @Test
    void shouldCarryAResultTooLargeAsTheEnginesRecordAsThatAttemptsFailure() {
        // About 400 KB as the worker's JSON, under the broker's limit; 1.1 MB in the engine's encoding, over it.
        List<Double> numbers = java.util.Collections.nCopies(100_000, 1.5);
        StepResult result = new StepResult("default", "01JA", "charge", 2, Map.of("values", numbers), null, null, "worker-1", PUBLISHED)
                .withResultKey("the-step's-key");
        assertThat(dev.sopline.schemas.json.Json.mapper().writeValueAsBytes(result).length).isLessThan(500_000);

        results.pipeInput("01JA", result, PUBLISHED);

        ReportStepResult relayed = (ReportStepResult) commands.readValue();
        assertThat(relayed.result().attempt()).isEqualTo(2);
        assertThat(relayed.result().outputs()).isNull();
        assertThat(relayed.result().error().code()).isEqualTo("payload_too_large");
        assertThat(relayed.result().error().message()).contains("bytes as the engine's record");
        assertThat(relayed.result().resultKey()).as("still the attempt's answer").isEqualTo("the-step's-key");
    }

    @Test
    void shouldRelayAResultHoldingHalfASurrogatePairWithTheReplacementCharacter() {
        StepResult result = new StepResult("default", "01JA", "charge", 1, Map.of("text", "a" + (char) 0xD800), null, null, "worker-1", PUBLISHED);

        results.pipeInput("01JA", result, PUBLISHED);

        ReportStepResult relayed = (ReportStepResult) commands.readValue();
        assertThat(relayed.result().outputs()).containsEntry("text", "a\uFFFD");
        assertThat(commands.isEmpty()).isTrue();
    }

    @Test
    void shouldBoundTheSendersTextsBeforeCopyingAndDropWhatNoStepCouldBe() {
        String huge = "x".repeat(1_100_000);
        results.pipeInput("01JA", new StepResult("default", "01JA", "charge", 1, Map.of("receipt", "r"), null, null, huge, PUBLISHED)
                .withResultKey(huge), PUBLISHED);
        try (CapturedLog log = CapturedLog.of(ResultRelay.class)) {
            results.pipeInput("01JA", new StepResult("default", "01JA", huge, 1, Map.of("receipt", "r"), null, null, "worker-1", PUBLISHED),
                    PUBLISHED);

            assertThat(log.messagesAtLeast(Level.WARN)).as("the sender's step id, clipped").isNotEmpty()
                    .allSatisfy(message -> assertThat(message).hasSizeLessThan(400))
                    .anySatisfy(message -> assertThat(message).contains("(1100000 characters)"));
        }

        List<Command> relayed = commands.readValuesToList();
        assertThat(relayed).singleElement().satisfies(command -> {
            StepResult copied = ((ReportStepResult) command).result();
            assertThat(copied.outputs()).containsEntry("receipt", "r");
            assertThat(copied.worker()).hasSize(StepResult.MAX_WORKER_CHARS + 1);
            assertThat(copied.resultKey()).hasSize(StepResult.MAX_KEY_CHARS + 1);
        });
    }

    private static Properties properties() {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "relay-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        return props;
    }
}
