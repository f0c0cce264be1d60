package dev.sopline.engine.topology;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sopline.engine.api.serde.RecordSerde;
import dev.sopline.engine.state.Instance;
import dev.sopline.engine.state.StepRun;
import dev.sopline.schemas.definition.StepType;
import dev.sopline.schemas.event.StepResult;
import dev.sopline.schemas.instance.StepError;
import dev.sopline.schemas.instance.InstanceState;
import dev.sopline.schemas.instance.StepState;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A worker's error marked not retryable fails the step after its one attempt, whatever the retry policy allows. */
class PermanentFailureTopologyTest {

    private static final String ID = "01JAAAAAAAAAAAAAAAAAAAAAAA";

    private final EngineHarness engine = new EngineHarness();

    @BeforeEach
    void start() {
        engine.register("automated.yaml"); // charge: max_attempts 3
        engine.start(ID, "billing", Map.of("amount", 99));
        engine.readySteps(StepType.AUTOMATED);
    }

    @AfterEach
    void close() {
        engine.close();
    }

    @Test
    void shouldFailTheStepAtOnceWhenAKafkaWorkerReportsAnErrorThatIsNotRetryable() {
        engine.workerPermanentError(ID, "charge", 1, "card_declined");
        engine.advance(Duration.ofSeconds(10));

        assertFailedAfterOneAttempt();
    }

    @Test
    void shouldFailTheStepAtOnceWhenAnHttpWorkerSubmitsAnErrorThatIsNotRetryable() {
        engine.submitPermanentError(ID, "billing", "charge", "card_declined");
        engine.advance(Duration.ofSeconds(10));

        assertFailedAfterOneAttempt();
    }

    @Test
    void shouldStillRetryAnErrorThatDoesNotSayItIsPermanent() {
        engine.workerError(ID, "charge", 1, "card_declined");
        engine.advance(Duration.ofSeconds(2));

        assertThat(engine.instance(ID).state()).isEqualTo(InstanceState.RUNNING);
        assertThat(engine.readySteps(StepType.AUTOMATED)).singleElement().satisfies(ready -> assertThat(ready.attempt()).isEqualTo(2));
    }

    @Test
    void shouldKeepOnlyTheBoundedTextsOfAWorkersHugeErrorAndName() {
        String huge = "x".repeat(600_000);
        engine.result(new StepResult(EngineHarness.WORKSPACE, ID, "charge", 1, null, StepError.permanent(huge, huge), null, huge, engine.now()));

        Instance instance = engine.instance(ID);
        assertThat(instance.state()).isEqualTo(InstanceState.FAILED);
        assertThat(instance.error().code()).hasSize(StepError.MAX_CODE_CHARS + 1).endsWith("\u2026");
        assertThat(instance.error().message()).hasSize(StepError.MAX_MESSAGE_CHARS + 1);
        assertThat(instance.step("charge").orElseThrow().error().code()).hasSize(StepError.MAX_CODE_CHARS + 1);
        // Stored twice (on the step and on the instance) and in the events: together far under a record's 1 MiB.
        assertThat(RecordSerde.write(instance).length).isLessThan(64 * 1024);
        assertThat(history()).isNotEmpty().allSatisfy(entry -> {
            if (entry.by() != null && entry.by().id() != null) {
                assertThat(entry.by().id().length()).isLessThanOrEqualTo(StepResult.MAX_WORKER_CHARS + 1);
            }
        });
    }

    @SuppressWarnings("unchecked")
    private java.util.List<dev.sopline.schemas.instance.HistoryEntry> history() {
        org.apache.kafka.streams.state.KeyValueStore<String, dev.sopline.engine.state.HistoryRecord> store =
                (org.apache.kafka.streams.state.KeyValueStore<String, dev.sopline.engine.state.HistoryRecord>) (Object) engine.store(EngineTopology.HISTORY_STORE);
        return dev.sopline.engine.state.HistoryStore.page(store, EngineHarness.WORKSPACE, ID, 0, 500);
    }

    private void assertFailedAfterOneAttempt() {
        Instance instance = engine.instance(ID);
        StepRun charge = instance.step("charge").orElseThrow();
        assertThat(instance.state()).isEqualTo(InstanceState.FAILED);
        assertThat(instance.error().code()).isEqualTo("card_declined");
        assertThat(instance.error().stepId()).isEqualTo("charge");
        assertThat(charge.state()).isEqualTo(StepState.FAILED);
        assertThat(charge.attempt()).isEqualTo(1);
        assertThat(engine.readySteps(StepType.AUTOMATED)).as("no second attempt").isEmpty();
        assertThat(engine.pending()).isEmpty();
    }
}
