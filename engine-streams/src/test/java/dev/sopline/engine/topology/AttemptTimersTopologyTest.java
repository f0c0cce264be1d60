package dev.sopline.engine.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.sopline.engine.state.Timer;
import dev.sopline.schemas.command.FireTimer;
import dev.sopline.schemas.definition.StepType;
import dev.sopline.schemas.instance.InstanceState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * An attempt's timers (its timeout, the backoff before the next attempt) end with the attempt: the timers store holds
 * those of live attempts only, and nothing comes back through the command log for a step that ended long before.
 */
class AttemptTimersTopologyTest {

    private static final String ID = "01JAT000000000000000000001";

    private final EngineHarness engine = new EngineHarness();

    @AfterEach
    void close() {
        engine.close();
    }

    @Test
    void shouldRemoveAWebhookStepsTimeoutWhenItsCallbackComes() {
        // given a webhook step waiting for its callback, for at most 2 hours
        engine.register("webhook.yaml");
        engine.start(ID, "identity", Map.of());
        assertThat(timersOf(ID)).extracting(Timer::kind).containsExactly(Timer.Kind.STEP_TIMEOUT);

        // when the callback comes
        engine.callback(ID, engine.instance(ID).step("verify").orElseThrow().callbackId(), Map.of("status", "verified", "ref", "a1"));

        // then the step's timeout is gone with it, and its time passes without a command
        assertThat(engine.instance(ID).state()).isEqualTo(InstanceState.COMPLETED);
        assertThat(timersOf(ID)).isEmpty();
        engine.writtenCommands();
        engine.advance(Duration.ofHours(3));
        assertThat(engine.writtenCommands()).isEmpty();
    }

    @Test
    void shouldKeepOnlyTheTimersOfTheCurrentAttemptThroughRetries() {
        // given an automated step with a 1 h timeout and a 1 s backoff between attempts
        engine.register("automated.yaml");
        engine.start(ID, "billing", Map.of("amount", 12));
        assertThat(timersOf(ID)).extracting(Timer::kind, Timer::attempt).containsExactly(tuple(Timer.Kind.STEP_TIMEOUT, 1));

        // when the first attempt fails, its timeout goes and the backoff's timer comes
        engine.workerError(ID, "charge", 1, "declined");
        assertThat(timersOf(ID)).extracting(Timer::kind, Timer::attempt).containsExactly(tuple(Timer.Kind.RETRY, 1));

        // and the second attempt, offered after the backoff, has its own timeout only
        engine.advance(Duration.ofMillis(1_100));
        assertThat(engine.readySteps(StepType.AUTOMATED)).isNotEmpty();
        assertThat(timersOf(ID)).extracting(Timer::kind, Timer::attempt).containsExactly(tuple(Timer.Kind.STEP_TIMEOUT, 2));

        // then the second attempt's result leaves no timer, and the hour passes without a command
        engine.workerResult(ID, "charge", 2, Map.of("receipt", "r-1"));
        assertThat(engine.instance(ID).state()).isEqualTo(InstanceState.COMPLETED);
        assertThat(timersOf(ID)).isEmpty();
        engine.writtenCommands();
        engine.advance(Duration.ofHours(2));
        assertThat(engine.writtenCommands()).isEmpty();
    }

    @Test
    void shouldRemoveTheTimersOfACancelledInstance() {
        engine.register("automated.yaml");
        engine.start(ID, "billing", Map.of("amount", 12));
        engine.workerError(ID, "charge", 1, "declined");

        engine.cancel(ID, "billing");

        assertThat(engine.instance(ID).state()).isEqualTo(InstanceState.CANCELLED);
        assertThat(timersOf(ID)).isEmpty();
    }

    @Test
    void shouldRemoveATimeoutThatHeartbeatsMovedOnWhenTheStepCompletes() {
        // given a 5 s step whose worker's heartbeats carried it past its first deadline, where its timer was set again
        engine.register("heartbeat.yaml");
        engine.start(ID, "report", Map.of());
        for (int second = 3; second <= 9; second += 3) {
            engine.advance(Duration.ofSeconds(3));
            engine.heartbeat(ID, "build", 1);
        }
        assertThat(engine.writtenCommands()).as("the first timeout timer fired and was set again")
                .hasAtLeastOneElementOfType(FireTimer.class);
        assertThat(timersOf(ID)).hasSize(1);

        // when the step completes
        engine.workerResult(ID, "build", 1, Map.of("url", "https://reports.example/q3"));

        // then its timer, wherever heartbeats moved it, is gone
        assertThat(engine.instance(ID).state()).isEqualTo(InstanceState.COMPLETED);
        assertThat(timersOf(ID)).isEmpty();
        engine.advance(Duration.ofSeconds(10));
        assertThat(engine.writtenCommands()).isEmpty();
    }

    private List<Timer> timersOf(String instanceId) {
        List<Timer> found = new ArrayList<>();
        try (var all = engine.store(EngineTopology.TIMERS_STORE).all()) {
            all.forEachRemaining(entry -> {
                if (entry.value instanceof Timer timer && instanceId.equals(timer.target())) {
                    found.add(timer);
                }
            });
        }
        return found;
    }
}
