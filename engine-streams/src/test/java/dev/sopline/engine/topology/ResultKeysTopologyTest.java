package dev.sopline.engine.topology;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sopline.engine.decision.CallbackIds;
import dev.sopline.schemas.definition.StepType;
import dev.sopline.schemas.event.StepReady;
import dev.sopline.schemas.event.StepResult;
import dev.sopline.schemas.instance.InstanceState;
import dev.sopline.schemas.instance.StepState;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Results over Kafka and their attempt's key: a step-ready event carries a key only its worker learns, a result with
 * a wrong key is never taken, and with {@code SOP_RESULT_KEYS=required} neither is one without a key, so a writer of
 * {@code sop.step-results} who knows an instance's id cannot answer another team's or workspace's step.
 */
class ResultKeysTopologyTest {

    private static final String ID = "01JAAAAAAAAAAAAAAAAAAAAAAA";

    private EngineHarness engine;

    @AfterEach
    void close() {
        engine.close();
    }

    private StepReady started(boolean keysRequired) {
        engine = new EngineHarness(new EngineConfig(Duration.ofMillis(100),
                new CallbackIds(EngineHarness.SECRET).requiringResultKeys(keysRequired)));
        engine.register("automated.yaml");
        engine.start(ID, "billing", Map.of("amount", 99));
        return engine.readySteps(StepType.AUTOMATED).get(0);
    }

    private StepResult result(StepReady ready, String key) {
        return new StepResult(EngineHarness.WORKSPACE, ID, ready.stepId(), ready.attempt(), Map.of("receipt", "r-1"), null, null,
                "worker-1", engine.now()).withResultKey(key);
    }

    @Test
    void shouldHandOutAKeyPerAttemptThatOnlyTheEngineCanMake() {
        StepReady ready = started(false);

        assertThat(ready.resultKey()).isNotBlank();
        CallbackIds otherSecret = new CallbackIds("another-secret-of-32-bytes-or-so!".getBytes());
        assertThat(otherSecret.resultKey(EngineHarness.WORKSPACE, ID, ready.stepId(), ready.attempt())).isNotEqualTo(ready.resultKey());
        assertThat(ready.resultKey()).isNotEqualTo(ready.callbackId());
    }

    @Test
    void shouldTakeAResultCarryingItsAttemptsKey() {
        StepReady ready = started(true);

        engine.result(result(ready, ready.resultKey()));

        assertThat(engine.instance(ID).step("charge").orElseThrow().state()).isEqualTo(StepState.COMPLETED);
    }

    @Test
    void shouldNeverTakeAResultWithAWrongKey() {
        StepReady ready = started(false);

        engine.result(result(ready, "01JZZZZZZZZZZZZZZZZZZZZZZZ"));

        assertThat(engine.instance(ID).step("charge").orElseThrow().state()).isEqualTo(StepState.ACTIVE);
        assertThat(engine.instance(ID).state()).isEqualTo(InstanceState.RUNNING);
    }

    @Test
    void shouldTakeAResultWithoutAKeyOnlyWhileKeysAreOptional() {
        StepReady optional = started(false);
        engine.result(result(optional, null));
        assertThat(engine.instance(ID).step("charge").orElseThrow().state()).isEqualTo(StepState.COMPLETED);
        engine.close();

        StepReady required = started(true);
        engine.result(result(required, null));
        assertThat(engine.instance(ID).step("charge").orElseThrow().state()).isEqualTo(StepState.ACTIVE);
        engine.result(result(required, required.resultKey()));
        assertThat(engine.instance(ID).step("charge").orElseThrow().state()).isEqualTo(StepState.COMPLETED);
    }

    @Test
    void shouldTakeWithoutAKeyWhatTheGatewayWroteForATokenItChecked() {
        StepReady ready = started(true);

        engine.publish(new dev.sopline.schemas.command.ReportStepResult(result(ready, null), true));

        assertThat(engine.instance(ID).step("charge").orElseThrow().state()).isEqualTo(StepState.COMPLETED);
    }
}
