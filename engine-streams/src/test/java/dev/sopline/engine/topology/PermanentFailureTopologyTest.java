package dev.sopline.engine.topology;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sopline.engine.state.Instance;
import dev.sopline.engine.state.StepRun;
import dev.sopline.schemas.definition.StepType;
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
