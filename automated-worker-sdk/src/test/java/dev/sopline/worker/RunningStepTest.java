package dev.sopline.worker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sopline.schemas.definition.StepType;
import dev.sopline.schemas.event.StepReady;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** When the worker gives up on a running step: its deadline, moved by heartbeats as the engine moves it. */
class RunningStepTest {

    private static final Instant READY_AT = Instant.parse("2026-11-23T10:00:00Z");
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    @Test
    void shouldGiveUpOneGraceAfterTheDeadlineWithoutHeartbeats() {
        RunningStep step = step("5s");

        assertThat(step.expired(READY_AT.plus(TIMEOUT))).isFalse();
        assertThat(step.expired(READY_AT.plus(TIMEOUT).plus(RunningStep.GRACE).plusMillis(1))).isTrue();
    }

    @Test
    void shouldMoveTheDeadlineByTheStepsHeartbeatTimeoutAsTheEngineDoes() {
        RunningStep step = step("5s");
        Instant heartbeat = READY_AT.plusSeconds(4);

        step.heartbeat(heartbeat);

        assertThat(step.expired(heartbeat.plusSeconds(5))).as("within the heartbeat timeout").isFalse();
        assertThat(step.expired(heartbeat.plusSeconds(5).plus(RunningStep.GRACE).plusMillis(1)))
                .as("the engine has timed it out: its heartbeats stopped").isTrue();
    }

    @Test
    void shouldWaitGenerouslyWhenTheEventDoesNotSayTheHeartbeatTimeout() {
        RunningStep step = step(null);
        Instant heartbeat = READY_AT.plusSeconds(4);

        step.heartbeat(heartbeat);

        assertThat(step.expired(heartbeat.plus(RunningStep.HEARTBEAT_FLOOR))).isFalse();
        assertThat(step.expired(heartbeat.plus(RunningStep.HEARTBEAT_FLOOR).plus(RunningStep.GRACE).plusMillis(1))).isTrue();
    }

    private static RunningStep step(String heartbeatTimeout) {
        StepReady ready = new StepReady("default", "01JAAAAAAAAAAAAAAAAAAAAAAA", "report", "1.0", "build", "Build", StepType.AUTOMATED,
                "reports.build", 1, Map.of(), List.of(), null, null, READY_AT.plus(TIMEOUT), READY_AT, heartbeatTimeout);
        return new RunningStep(new TopicPartition("sop.steps.automated.reports", 0), 0, ready);
    }
}
