package dev.sopline.engine.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.sopline.engine.state.AttemptTimers;
import dev.sopline.engine.state.Instance;
import dev.sopline.engine.state.StepRun;
import dev.sopline.engine.state.Timer;
import dev.sopline.schemas.command.FireTimer;
import dev.sopline.schemas.definition.StepType;
import dev.sopline.schemas.instance.InstanceState;
import dev.sopline.schemas.json.Json;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

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

    @Test
    void shouldDoNothingWithATimeoutWhoseCommandWasOnItsWayWhenTheStepCompleted() {
        // given a form step whose 1 s timeout came due, its fire_timer command written but not read back yet
        engine.register("quick-form.yaml", TimerFiringTest.QUICK_FORM.getBytes(StandardCharsets.UTF_8));
        engine.start(ID, "quick-form", Map.of());
        engine.logging(EngineHarness.CommandLogging.HOLD);
        engine.advance(Duration.ofMillis(1_100));
        assertThat(engine.held()).hasAtLeastOneElementOfType(FireTimer.class);

        // when the person submits first, and the command is read after
        assertThat(engine.submit(ID, "quick-form", "sign", Map.of("ok", "yes")).status()).isEqualTo(200);
        engine.deliverHeld();

        // then the step stays completed: its timer went with it, and the command finds none
        assertThat(engine.instance(ID).state()).isEqualTo(InstanceState.COMPLETED);
        assertThat(timersOf(ID)).isEmpty();
    }

    @Test
    void shouldLeaveTheTimeoutOfAStepStoredBeforeStepsKeptWhereItIsDue() {
        // given a webhook step as this version stores it, and as the previous one did, without where its timer is due
        engine.register("webhook.yaml");
        engine.start(ID, "identity", Map.of());
        Instance stored = engine.instance(ID);
        ObjectNode previous = Json.mapper().valueToTree(stored);
        previous.withArray("steps").forEach(step -> ((ObjectNode) step).remove("timeout_timer_at"));
        Instance storedBefore = Json.mapper().treeToValue(previous, Instance.class);

        // when the step completes, then only the timer whose due time the step kept is removed: the other is left to
        // fire, and a timer for an attempt that has ended does nothing
        assertThat(AttemptTimers.endedBetween(stored, completed(stored))).hasSize(1);
        assertThat(AttemptTimers.endedBetween(storedBefore, completed(storedBefore))).isEmpty();
    }

    private Instance completed(Instance instance) {
        StepRun verify = instance.step("verify").orElseThrow();
        return instance.withStep(verify.complete(Map.of("status", "verified"), null, engine.now()));
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
