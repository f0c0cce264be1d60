package dev.sopline.engine.topology;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sopline.engine.decision.CallbackIds;
import dev.sopline.schemas.command.Command;
import dev.sopline.schemas.command.FireTimer;
import dev.sopline.schemas.definition.StepType;
import dev.sopline.schemas.event.StepReady;
import dev.sopline.schemas.instance.InstanceState;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A due timer decides nothing where it is found: punctuation writes a {@link FireTimer} command to the command topic,
 * and the engine decides when it reads that command, as of the command's time. So the timer's outcome is in the log.
 */
class TimerFiringTest {

    private static final String ID = "01JT0000000000000000000001";
    /** One form step that times out after 1 s. */
    static final String QUICK_FORM = """
            engine: "0.1"
            process:
              name: quick-form
              version: "1.0"
              steps:
                - id: sign
                  type: form
                  timeout: 1s
                  outputs:
                    - name: ok
            """;

    private static final int FIRES_PER_PUNCTUATION = 3;

    private final EngineHarness engine = new EngineHarness(
            new EngineConfig(Duration.ofMillis(100), new CallbackIds(EngineHarness.SECRET), FIRES_PER_PUNCTUATION));

    @AfterEach
    void close() {
        engine.close();
    }

    @Test
    void shouldOfferTheNextAttemptAsOfTheTimeTheRetryTimerWasFired() {
        // given a failed attempt waiting for its 1 s backoff
        engine.register("automated.yaml");
        engine.start(ID, "billing", Map.of("amount", 12));
        engine.workerError(ID, "charge", 1, "declined");
        engine.readySteps(StepType.AUTOMATED);
        engine.writtenCommands();

        // when the backoff has passed
        engine.advance(Duration.ofMillis(1_100));

        // then the timer went through the log, and the next attempt is ready as of that command's time
        List<TestRecord<String, Command>> written = engine.writtenCommandRecords();
        assertThat(written).extracting(TestRecord::value).containsExactly(
                new FireTimer(EngineHarness.WORKSPACE, FireTimer.Kind.RETRY, ID, "charge", 1, EngineHarness.START.plusSeconds(1), true));
        assertThat(written.get(0).key()).isEqualTo(ID);
        StepReady next = engine.readySteps(StepType.AUTOMATED).get(0);
        assertThat(next.attempt()).isEqualTo(2);
        assertThat(next.createdAt()).isEqualTo(Instant.ofEpochMilli(written.get(0).timestamp()));
    }

    @Test
    void shouldTimeAStepOutOnceWhenTheBrokersClockRunsBehindTheEngineHosts() {
        // given a form step with a 1 s timeout
        engine.register("quick-form.yaml", QUICK_FORM.getBytes(StandardCharsets.UTF_8));
        engine.start(ID, "quick-form", Map.of());
        engine.writtenCommands();
        engine.logging(EngineHarness.CommandLogging.HOLD);

        // when its timer comes due by the engine host's clock, and the broker, 500 ms behind, stamps its command before
        // the deadline
        engine.advance(Duration.ofMillis(1_100));
        engine.deliverHeldStampedEarlier(Duration.ofMillis(500));
        for (int i = 0; i < 3; i++) {
            engine.advance(Duration.ofMillis(100));
            engine.deliverHeldStampedEarlier(Duration.ofMillis(500));
        }

        // then the step timed out at its deadline, from the one command
        assertThat(engine.instance(ID).state()).isEqualTo(InstanceState.FAILED);
        assertThat(engine.instance(ID).step("sign").orElseThrow().error().code()).isEqualTo("step_timeout");
        assertThat(engine.writtenCommands()).filteredOn(FireTimer.class::isInstance).as("timer commands written").hasSize(1);
    }

    @Test
    void shouldFireAtMostABoundedNumberOfTimersPerPunctuation() {
        // given more timeouts due at once than one punctuation fires
        engine.register("quick-form.yaml", QUICK_FORM.getBytes(StandardCharsets.UTF_8));
        int instances = FIRES_PER_PUNCTUATION + 2;
        for (int i = 0; i < instances; i++) {
            engine.start(instanceId(i), "quick-form", Map.of());
        }

        // when they are due, the first punctuation fires the first batch, the next one the rest
        engine.advance(Duration.ofSeconds(2));
        assertThat(engine.writtenCommands()).hasSize(FIRES_PER_PUNCTUATION);
        engine.advance(Duration.ofMillis(100));
        assertThat(engine.writtenCommands()).hasSize(2);

        // then every one of them timed out, once
        for (int i = 0; i < instances; i++) {
            assertThat(engine.instance(instanceId(i)).state()).isEqualTo(InstanceState.FAILED);
        }
        engine.advance(Duration.ofMillis(100));
        assertThat(engine.writtenCommands()).isEmpty();
    }

    private static String instanceId(int i) {
        return "01JT%022d".formatted(i);
    }
}
