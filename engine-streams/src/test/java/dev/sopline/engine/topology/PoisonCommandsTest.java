package dev.sopline.engine.topology;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sopline.engine.state.Instance;
import dev.sopline.schemas.command.CommandReply;
import dev.sopline.schemas.command.InstanceKeys;
import dev.sopline.schemas.command.SubmitStep;
import dev.sopline.schemas.definition.StepType;
import dev.sopline.schemas.instance.InstanceState;
import dev.sopline.schemas.instance.StepState;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * CONTRACT section 8, "Sizes" and "Engine faults": data that would make an instance too large is refused and changes
 * nothing, large process versions are stored each on its own, and a command the engine cannot apply is answered and
 * skipped, never retried forever.
 */
class PoisonCommandsTest {

    private static final String ID = "01JAAAAAAAAAAAAAAAAAAAAAAA";
    private static final String OTHER_ID = "01JBBBBBBBBBBBBBBBBBBBBBBB";
    /**
     * A record the tests write into the store themselves goes under an id the engine has not read yet, as a record
     * restored from the changelog would be: the engine keeps the instances it decides decoded between commands.
     */
    private static final String BROKEN_ID = "01JCCCCCCCCCCCCCCCCCCCCCCC";

    private final EngineHarness engine = new EngineHarness();

    @AfterEach
    void close() {
        engine.close();
    }

    static String text(int bytes) {
        return "x".repeat(bytes);
    }

    @Test
    void shouldRefuseWithPayloadTooLargeAndStoreNothingWhenStartInputsPassTheBudget() {
        // given
        engine.register("two-step.yaml");

        // when
        CommandReply reply = engine.start(ID, "two-step", Map.of("title", text(600 * 1024)));

        // then
        assertThat(reply.status()).isEqualTo(413);
        assertThat(reply.error()).isEqualTo("payload_too_large");
        assertThat(engine.instance(ID)).isNull();
        assertThat(engine.readySteps(StepType.FORM)).isEmpty();
        assertThat(engine.events()).isEmpty();
    }

    @Test
    void shouldRefuseAStartWithinTheBudgetWhoseInstanceWouldNotFitOneRecordAsTheEngineWritesIt() {
        // 60,000 numbers such as 0.1: 240 KB of JSON, within the 256 KiB budget, 660 KB in the engine's encoding; the
        // first step's inputs copy them, and the instance would be 1.3 MB, a record the broker refuses.
        engine.register("trigger-copy.yaml");
        Map<String, Object> payload = Map.of("values", java.util.Collections.nCopies(60_000, 0.1));

        CommandReply reply = engine.send(new dev.sopline.schemas.command.StartInstance("start-1", EngineHarness.WORKSPACE, ID,
                "trigger-copy", Map.of(), payload, dev.sopline.schemas.command.StartInstance.TRIGGER, null));

        assertThat(reply.status()).isEqualTo(413);
        assertThat(reply.error()).isEqualTo("payload_too_large");
        assertThat(reply.message()).contains("as the engine writes it");
        assertThat(engine.instance(ID)).isNull();
        assertThat(engine.readySteps(StepType.FORM)).isEmpty();
        // Half the numbers fit: started, its record within the limit.
        CommandReply half = engine.send(new dev.sopline.schemas.command.StartInstance("start-2", EngineHarness.WORKSPACE, OTHER_ID,
                "trigger-copy", Map.of(), Map.of("values", java.util.Collections.nCopies(30_000, 0.1)),
                dev.sopline.schemas.command.StartInstance.TRIGGER, null));
        assertThat(half.status()).isEqualTo(201);
        assertThat(dev.sopline.engine.api.serde.RecordSerde.write(engine.instance(OTHER_ID)).length)
                .isLessThanOrEqualTo(dev.sopline.engine.api.serde.RecordSerde.MAX_RECORD_BYTES);
    }

    @Test
    void shouldRefuseWithPayloadTooLargeAndKeepTheInstanceWhenSubmitWouldPassTheBudget() {
        // given: 150 KiB of inputs, then 150 KiB of outputs would make 300 KiB, over the 256 KiB budget
        engine.register("two-step.yaml");
        assertThat(engine.start(ID, "two-step", Map.of("title", text(150 * 1024))).status()).isEqualTo(201);
        Instance before = engine.instance(ID);

        // when
        CommandReply reply = engine.submit(ID, "two-step", "draft", Map.of("text", text(150 * 1024)));

        // then
        assertThat(reply.status()).isEqualTo(413);
        assertThat(reply.error()).isEqualTo("payload_too_large");
        assertThat(reply.message()).contains("draft");
        assertThat(engine.instance(ID)).isEqualTo(before);
        assertThat(engine.submit(ID, "two-step", "draft", Map.of("text", "short")).status()).isEqualTo(200);
    }

    @Test
    void shouldFailTheAttemptWithPayloadTooLargeWhenAWorkerResultWouldPassTheBudget() {
        // given
        engine.register("automated.yaml");
        engine.start(ID, "billing", Map.of("amount", 12.5));

        // when
        engine.workerResult(ID, "charge", 1, Map.of("receipt", text(300 * 1024)));

        // then: not dropped silently: the attempt failed with a code saying why, and is retried by its policy
        var step = engine.instance(ID).step("charge").orElseThrow();
        assertThat(step.state()).isEqualTo(StepState.ACTIVE);
        assertThat(step.error().code()).isEqualTo("payload_too_large");
        assertThat(step.retryAt()).isNotNull();
        assertThat(step.outputs()).isNull();
    }

    @Test
    void shouldRefuseWithPayloadTooLargeWhenACallbackPayloadWouldPassTheBudget() {
        // given
        engine.register("webhook.yaml");
        engine.start(ID, "identity", Map.of());
        String callbackId = engine.instance(ID).activeStep().orElseThrow().callbackId();
        Instance before = engine.instance(ID);

        // when
        CommandReply reply = engine.callback(ID, callbackId, Map.of("status", "verified", "ref", "r-1", "padding", text(300 * 1024)));

        // then
        assertThat(reply.status()).isEqualTo(413);
        assertThat(engine.instance(ID)).isEqualTo(before);
    }

    @Test
    void shouldRefuseWithPayloadTooLargeAndStoreNothingWhenAStepsInputsRepeatAReferenceToLargeData() {
        // given: a step input naming the start's note 5,000 times; a note of 100 KiB would make it 500 MB of text
        byte[] yaml = """
                engine: "0.1"
                process:
                  name: echo
                  version: "1.0"
                  inputs:
                    - name: note
                  steps:
                    - id: read
                      type: form
                      inputs:
                        all: "%s"
                      outputs:
                        - name: ok
                """.formatted("${inputs.note}".repeat(5_000)).getBytes(StandardCharsets.UTF_8);
        assertThat(engine.register("echo", yaml).status()).isEqualTo(201);

        // when
        CommandReply reply = engine.start(ID, "echo", Map.of("note", text(100 * 1024)));

        // then
        assertThat(reply.status()).isEqualTo(413);
        assertThat(reply.error()).isEqualTo("payload_too_large");
        assertThat(engine.instance(ID)).isNull();
        assertThat(engine.start(OTHER_ID, "echo", Map.of("note", "short")).status()).isEqualTo(201);
    }

    @Test
    void shouldCompleteTheStepWhenACallbackSendsANumberBeyondDoubleRange() {
        // given: 1e400 in a JSON body reads as Infinity; the step's output interpolates it into text
        engine.register("webhook.yaml");
        engine.start(ID, "identity", Map.of());
        String callbackId = engine.instance(ID).activeStep().orElseThrow().callbackId();
        Map<?, ?> body = dev.sopline.schemas.json.Json.mapper().readValue("{\"status\": \"verified\", \"ref\": 1e400}", Map.class);

        // when
        CommandReply reply = engine.callback(ID, callbackId, body);

        // then
        assertThat(reply.status()).isEqualTo(200);
        assertThat(engine.instance(ID).state()).isEqualTo(InstanceState.COMPLETED);
        assertThat(engine.instance(ID).step("verify").orElseThrow().outputs()).containsEntry("reference", "ref-Infinity");
    }

    @Test
    void shouldRegisterThreeVersionsOf255KilobytesEachAndStartTheLatest() {
        // when
        for (String version : new String[] {"1.9", "1.10", "1.2"}) {
            assertThat(engine.register("large-" + version, largeVersion(version)).status()).isEqualTo(201);
        }

        // then: each version is its own record; "latest" is compared by number, not by the keys' order
        KeyValueStore<String, Object> processes = engine.store(EngineTopology.PROCESSES_STORE);
        assertThat(processes.get(InstanceKeys.processKey(EngineHarness.WORKSPACE, "large"))).isNull();
        assertThat(processes.get(InstanceKeys.processKey(EngineHarness.WORKSPACE, "large") + "/1.10")).isNotNull();
        CommandReply started = engine.start(ID, "large", Map.of());
        assertThat(started.status()).isEqualTo(201);
        assertThat(started.body()).extracting("version").isEqualTo("1.10");
    }

    @Test
    void shouldRefuseWithPayloadTooLargeAVersionWhoseStoredRecordWouldBeTooLarge() {
        // given: a file within the 256 KiB limit whose every character JSON escapes, so its record doubles twice
        byte[] yaml = """
                engine: "0.1"
                process:
                  name: quoted
                  version: "1.0"
                  description: '%s'
                  steps:
                    - id: approve
                      type: form
                """.formatted("\"".repeat(250 * 1024)).getBytes(StandardCharsets.UTF_8);

        // when
        CommandReply reply = engine.register("quoted", yaml);

        // then
        assertThat(reply.status()).isEqualTo(413);
        assertThat(reply.error()).isEqualTo("payload_too_large");
    }

    @Test
    void shouldAnswerEngineErrorAndGoOnWhenACommandCannotBeApplied() {
        // given: an instance record the engine cannot work with (no state: a defect, or data it does not understand)
        engine.register("two-step.yaml");
        engine.start(ID, "two-step", Map.of("title", "Q3 plan"));
        Instance stored = engine.instance(ID);
        KeyValueStore<String, Object> instances = engine.store(EngineTopology.INSTANCES_STORE);
        instances.put(InstanceKeys.key(EngineHarness.WORKSPACE, BROKEN_ID), new Instance(BROKEN_ID, stored.workspace(), stored.process(),
                stored.version(), null, stored.inputs(), stored.outputs(), null, null, stored.startedAt(), null, stored.steps(), 0L));

        // when
        SubmitStep submit = new SubmitStep("cmd-broken", EngineHarness.WORKSPACE, BROKEN_ID, "two-step", "draft", Map.of("text", "t"), null);
        CommandReply reply = engine.send(submit);

        // then: answered, naming the command, and the next command is decided as usual
        assertThat(reply.status()).isEqualTo(500);
        assertThat(reply.error()).isEqualTo("engine_error");
        assertThat(reply.message()).contains("SubmitStep").contains("cmd-broken");
        CommandReply next = engine.start(OTHER_ID, "two-step", Map.of("title", "next"));
        assertThat(next.status()).isEqualTo(201);
        assertThat(engine.instance(OTHER_ID).state()).isEqualTo(InstanceState.WAITING);
    }

    @Test
    void shouldAnswerEngineErrorAndFailTheInstanceWhenItsHandlerMeetsADefect() {
        // given: an instance of a version that is not published (its handler cannot find the definition)
        engine.register("two-step.yaml");
        engine.start(ID, "two-step", Map.of("title", "Q3 plan"));
        Instance stored = engine.instance(ID);
        KeyValueStore<String, Object> instances = engine.store(EngineTopology.INSTANCES_STORE);
        instances.put(InstanceKeys.key(EngineHarness.WORKSPACE, BROKEN_ID), new Instance(BROKEN_ID, stored.workspace(), stored.process(),
                "9.9", stored.state(), stored.inputs(), stored.outputs(), null, null, stored.startedAt(), null, stored.steps(), 0L));

        // when
        CommandReply reply = engine.submit(BROKEN_ID, "two-step", "draft", Map.of("text", "t"));

        // then
        assertThat(reply.status()).isEqualTo(500);
        assertThat(reply.error()).isEqualTo("engine_error");
        assertThat(reply.message()).contains("SubmitStep");
        assertThat(engine.instance(BROKEN_ID).state()).isEqualTo(InstanceState.FAILED);
        engine.advance(Duration.ofSeconds(1));
        assertThat(engine.start(OTHER_ID, "two-step", Map.of("title", "next")).status()).isEqualTo(201);
    }

    /** A form process whose description makes its YAML about 255 KB long. */
    static byte[] largeVersion(String version) {
        return """
                engine: "0.1"
                process:
                  name: %s
                  version: "%s"
                  description: "%s"
                  steps:
                    - id: approve
                      type: form
                      outputs:
                        - name: ok
                          type: boolean
                """.formatted("large", version, text(255 * 1000)).getBytes(StandardCharsets.UTF_8);
    }
}
