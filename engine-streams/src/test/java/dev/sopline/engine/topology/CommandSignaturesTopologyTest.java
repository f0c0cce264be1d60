package dev.sopline.engine.topology;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sopline.engine.decision.CallbackIds;
import dev.sopline.schemas.command.CancelInstance;
import dev.sopline.schemas.command.ReportStepResult;
import dev.sopline.schemas.command.StartInstance;
import dev.sopline.schemas.definition.StepType;
import dev.sopline.schemas.event.StepReady;
import dev.sopline.schemas.event.StepResult;
import dev.sopline.schemas.instance.InstanceState;
import dev.sopline.schemas.instance.StepState;
import dev.sopline.schemas.json.Json;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The command topic takes teams' SDK workers' results straight from them, so the engine tells the platform's
 * commands from anything else a writer of the topic sends: only signed commands are taken as what they claim to be;
 * an unsigned record is taken only as a worker's result, checked as one from {@code sop.step-results}.
 */
class CommandSignaturesTopologyTest {

    private static final String ID = "01JSSSSSSSSSSSSSSSSSSSSSSS";

    private EngineHarness engine;

    @AfterEach
    void close() {
        engine.close();
    }

    private StepReady started(EngineConfig config) {
        engine = new EngineHarness(config);
        engine.register("automated.yaml");
        engine.start(ID, "billing", Map.of("amount", 99));
        return engine.readySteps(StepType.AUTOMATED).get(0);
    }

    private static EngineConfig config(boolean resultKeysRequired) {
        return new EngineConfig(Duration.ofMillis(100), new CallbackIds(EngineHarness.SECRET).requiringResultKeys(resultKeysRequired));
    }

    private StepResult result(StepReady ready, String key) {
        return new StepResult(EngineHarness.WORKSPACE, ID, ready.stepId(), ready.attempt(), Map.of("receipt", "r-1"), null, null,
                "worker-1", engine.now()).withResultKey(key);
    }

    @Test
    void shouldRefuseAnUnsignedStartAndCancelAsAWorkerCouldWriteThem() {
        started(config(false));
        StartInstance forged = engine.startCommand("01JFFFFFFFFFFFFFFFFFFFFFFF", "billing", Map.of("amount", 1), null);

        engine.publishUnsigned(forged);
        engine.publishUnsigned(new CancelInstance("cmd-forged-cancel", EngineHarness.WORKSPACE, ID, "billing"));

        assertThat(engine.instance("01JFFFFFFFFFFFFFFFFFFFFFFF")).as("no instance from an unsigned start").isNull();
        assertThat(engine.reply(forged.commandId())).isEmpty();
        assertThat(engine.instance(ID).state()).as("not cancelled by an unsigned cancel").isEqualTo(InstanceState.RUNNING);
        engine.send(forged);
        assertThat(engine.instance("01JFFFFFFFFFFFFFFFFFFFFFFF")).as("the same start, signed").isNotNull();
    }

    @Test
    void shouldTakeAWorkersUnsignedResultAsTheSdkWritesIt() {
        StepReady ready = started(config(true));
        // The SDK's record: the result's JSON, as sop.step-results holds one, wrapped as the command (ResultRoute).
        byte[] resultJson = Json.mapper().writeValueAsBytes(result(ready, ready.resultKey()));
        byte[] command = ("{\"command\":\"report_step_result\",\"result\":" + new String(resultJson, StandardCharsets.UTF_8) + "}")
                .getBytes(StandardCharsets.UTF_8);

        engine.publishRaw(ID, command);

        assertThat(engine.instance(ID).step("charge").orElseThrow().state()).isEqualTo(StepState.COMPLETED);
    }

    @Test
    void shouldPassOverAnUnsignedResultThatNamesNoStepAndGoOn() {
        StepReady ready = started(config(false));

        engine.publishRaw(ID, "{\"command\":\"report_step_result\"}".getBytes(StandardCharsets.UTF_8));
        engine.publishRaw(ID, "{\"command\":\"report_step_result\",\"result\":{\"attempt\":1}}".getBytes(StandardCharsets.UTF_8));
        engine.result(result(ready, ready.resultKey()));

        assertThat(engine.instance(ID).step("charge").orElseThrow().state()).isEqualTo(StepState.COMPLETED);
    }

    @Test
    void shouldCheckTheKeyOfAnUnsignedResultThatClaimsTheGatewayCheckedItsToken() {
        StepReady ready = started(config(true));

        engine.publishUnsigned(new ReportStepResult(result(ready, null), true));
        assertThat(engine.instance(ID).step("charge").orElseThrow().state()).as("no key, and no signature for the claim")
                .isEqualTo(StepState.ACTIVE);

        engine.publish(new ReportStepResult(result(ready, null), true));
        assertThat(engine.instance(ID).step("charge").orElseThrow().state()).as("the gateway's, signed").isEqualTo(StepState.COMPLETED);
    }

    @Test
    void shouldRefuseACommandSignedUnderAnotherSecret() {
        started(config(false));
        EngineHarness other = new EngineHarness(new EngineConfig(Duration.ofMillis(100),
                new CallbackIds("another-secret-of-32-bytes-or-so!".getBytes())));
        try {
            StartInstance start = engine.startCommand("01JGGGGGGGGGGGGGGGGGGGGGGG", "billing", Map.of("amount", 1), null);
            engine.publishSignedBy(other, start);
            assertThat(engine.instance("01JGGGGGGGGGGGGGGGGGGGGGGG")).isNull();
        } finally {
            other.close();
        }
    }

    @Test
    void shouldTakeUnsignedCommandsWhileSignaturesAreOptional() {
        started(config(false).withUnsignedCommandsAccepted(true));

        engine.publishUnsigned(new CancelInstance("cmd-old-gateway", EngineHarness.WORKSPACE, ID, "billing"));

        assertThat(engine.instance(ID).state()).isEqualTo(InstanceState.CANCELLED);
    }
}
