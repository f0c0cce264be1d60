package dev.sopline.engine.topology;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sopline.engine.state.StepRun;
import dev.sopline.engine.state.Timer;
import dev.sopline.schemas.definition.StepType;
import dev.sopline.schemas.event.StepReady;
import dev.sopline.schemas.instance.InstanceState;
import dev.sopline.schemas.instance.StepState;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Heartbeats of a long automated step ({@code timeout: 5s}, {@code heartbeat_timeout: 5s}, two attempts), on the
 * engine's own clock: each heartbeat moves the deadline, and an attempt whose heartbeats stop is handed out again.
 */
class HeartbeatTopologyTest {

    private static final String ID = "01JAAAAAAAAAAAAAAAAAAAAAAA";

    private final EngineHarness engine = new EngineHarness();

    @BeforeEach
    void start() {
        engine.register("heartbeat.yaml");
        engine.start(ID, "report", Map.of());
        assertThat(engine.readySteps(StepType.AUTOMATED)).extracting(StepReady::attempt).containsExactly(1);
    }

    @AfterEach
    void close() {
        engine.close();
    }

    @Test
    void shouldKeepAFiveSecondStepAliveForTwentySecondsWhileItsWorkerSendsHeartbeats() {
        for (int second = 3; second <= 21; second += 3) {
            engine.advance(Duration.ofSeconds(3));
            engine.heartbeat(ID, "build", 1);
        }
        engine.advance(Duration.ofSeconds(3)); // 24 s after the start, 3 s after the last heartbeat

        assertThat(build().state()).isEqualTo(StepState.ACTIVE);
        assertThat(build().attempt()).isEqualTo(1);
        assertThat(build().deadline()).isEqualTo(engine.now().plusSeconds(2));
        assertThat(engine.readySteps(StepType.AUTOMATED)).as("no other attempt handed out").isEmpty();

        engine.workerResult(ID, "build", 1, Map.of("url", "https://reports.example/q3"));
        assertThat(engine.instance(ID).state()).isEqualTo(InstanceState.COMPLETED);
    }

    @Test
    void shouldKeepOneTimeoutTimerForAnAttemptHoweverManyHeartbeatsCome() {
        // given a worker that sends a heartbeat every 100 ms for 6 s, past the step's first deadline
        for (int heartbeat = 0; heartbeat < 60; heartbeat++) {
            engine.advance(Duration.ofMillis(100));
            engine.heartbeat(ID, "build", 1);
        }

        // then the attempt has one timeout timer, not one per heartbeat
        assertThat(timeoutTimers()).hasSize(1);

        // and the step still times out 5 s after the last heartbeat, not before
        engine.advance(Duration.ofMillis(4_900));
        assertThat(build().isReady()).isTrue();
        engine.advance(Duration.ofMillis(200));
        assertThat(build().isReady()).isFalse();
        assertThat(build().error().code()).isEqualTo("heartbeat_timeout");
    }

    private List<Timer> timeoutTimers() {
        List<Timer> found = new ArrayList<>();
        try (var all = engine.store(EngineTopology.TIMERS_STORE).all()) {
            all.forEachRemaining(entry -> {
                if (entry.value instanceof Timer timer && timer.kind() == Timer.Kind.STEP_TIMEOUT && ID.equals(timer.target())) {
                    found.add(timer);
                }
            });
        }
        return found;
    }

    @Test
    void shouldHandTheStepOutAgainWhenItsHeartbeatsStop() {
        engine.advance(Duration.ofSeconds(3));
        engine.heartbeat(ID, "build", 1);
        engine.advance(Duration.ofSeconds(5)); // silent for 5 s: the deadline passes
        engine.advance(Duration.ofSeconds(1)); // the retry's backoff

        assertThat(build().attempt()).isEqualTo(2);
        assertThat(engine.readySteps(StepType.AUTOMATED)).extracting(StepReady::attempt).containsExactly(2);
        assertThat(engine.instance(ID).state()).isEqualTo(InstanceState.RUNNING);
    }

    @Test
    void shouldIgnoreAHeartbeatForAnAttemptThatIsNoLongerCurrent() {
        engine.advance(Duration.ofSeconds(6));
        engine.advance(Duration.ofSeconds(1));
        engine.readySteps(StepType.AUTOMATED);

        engine.heartbeat(ID, "build", 1);
        engine.advance(Duration.ofSeconds(6));
        engine.advance(Duration.ofSeconds(1));

        assertThat(engine.instance(ID).state()).as("the second and last attempt timed out too").isEqualTo(InstanceState.FAILED);
        assertThat(engine.instance(ID).error().code()).isEqualTo("heartbeat_timeout");
    }

    @Test
    void shouldWriteNothingForHeartbeatsOfAStepDeclaredWithoutThem() {
        String id = "01JAAAAAAAAAAAAAAAAAAAAAAB";
        engine.register("plain-build", """
                engine: "0.1"
                process:
                  name: plain-build
                  version: "1.0"
                  steps:
                    - id: build
                      type: automated
                      run: reports.build
                      timeout: 5s
                      outputs:
                        - name: url
                """.getBytes(StandardCharsets.UTF_8));
        engine.start(id, "plain-build", Map.of());
        engine.readySteps(StepType.AUTOMATED);
        engine.changelogKeys(EngineTopology.INSTANCES_STORE);
        engine.changelogKeys(EngineTopology.HISTORY_STORE);
        int eventsBefore = engine.events().size();

        for (int heartbeat = 0; heartbeat < 20; heartbeat++) {
            engine.heartbeat(id, "build", 1);
        }

        assertThat(engine.changelogKeys(EngineTopology.INSTANCES_STORE)).as("instance records written for 20 heartbeats").isEmpty();
        assertThat(engine.changelogKeys(EngineTopology.HISTORY_STORE)).as("history records written for 20 heartbeats").isEmpty();
        assertThat(engine.events()).hasSize(eventsBefore);
        engine.advance(Duration.ofSeconds(6));
        assertThat(engine.instance(id).step("build").orElseThrow().attempt()).as("the step still times out at its own limit").isEqualTo(1);
        assertThat(engine.instance(id).state()).isEqualTo(InstanceState.FAILED);
    }

    private StepRun build() {
        return engine.instance(ID).step("build").orElseThrow();
    }
}
