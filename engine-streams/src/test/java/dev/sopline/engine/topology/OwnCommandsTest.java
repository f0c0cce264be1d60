package dev.sopline.engine.topology;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sopline.engine.decision.CallbackIds;
import dev.sopline.engine.decision.InstanceBudget;
import dev.sopline.engine.state.Timer;
import dev.sopline.engine.state.WaitingStart;
import dev.sopline.engine.topology.EngineHarness.CommandLogging;
import dev.sopline.schemas.command.Command;
import dev.sopline.schemas.command.ExpireInstance;
import dev.sopline.schemas.command.FireTimer;
import dev.sopline.schemas.command.ReleaseStart;
import dev.sopline.schemas.command.StartInstance;
import dev.sopline.schemas.definition.StepType;
import dev.sopline.schemas.event.StepReady;
import dev.sopline.schemas.instance.InstanceState;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The commands punctuation writes (timer fires, expiries, released starts) go to the command topic outside the
 * engine's transaction, so they never hold back its readers; a crash may write one twice. What each acts on stays
 * stored until the first one is read, and a repeat finds nothing left to do.
 */
class OwnCommandsTest {

    private static final String ID = "01JW0000000000000000000001";
    private static final Duration RETENTION = Duration.ofHours(1);

    private final EngineHarness engine = new EngineHarness(new EngineConfig(Duration.ofMillis(100), new CallbackIds(EngineHarness.SECRET),
            EngineConfig.DEFAULT_FIRES_PER_PUNCTUATION, InstanceBudget.defaults()).withRetention(RETENTION));

    @AfterEach
    void close() {
        engine.close();
    }

    @Test
    void shouldWriteNoneOfItsOwnCommandsInsideItsTransaction() {
        // given a retry due, a finished instance past its retention and a held start whose process has arrived
        failFirstAttempt();
        String finished = "01JW0000000000000000000003";
        engine.start(finished, "billing", Map.of("amount", 5));
        engine.cancel(finished, "billing");
        StartInstance early = engine.startCommand("01JW0000000000000000000002", "two-step", Map.of("title", "t"), "1.0");
        engine.publish(early);
        engine.register("two-step.yaml");
        engine.logging(CommandLogging.HOLD);

        // when they are due
        engine.advance(RETENTION.plusSeconds(1));

        // then each went to the command log, and the topology wrote none of them to the topic itself
        assertThat(engine.held()).extracting(Command::getClass).contains(FireTimer.class, ExpireInstance.class, ReleaseStart.class);
        assertThat(engine.writtenInTransaction()).isEmpty();
    }

    @Test
    void shouldWriteADueTimersCommandOnceUntilItIsReadAndFireItOnceWhenReadTwice() {
        // given a failed attempt waiting for its 1 s backoff, and commands that are written but not read yet
        failFirstAttempt();
        engine.logging(CommandLogging.HOLD);

        // when the backoff has passed and several punctuations run before the command is read
        engine.advance(Duration.ofMillis(1_100));
        engine.advance(Duration.ofMillis(100));
        engine.advance(Duration.ofMillis(100));

        // then it was written once
        List<Command> held = engine.held();
        assertThat(held).hasSize(1).first().isInstanceOf(FireTimer.class);

        // and when it is read twice, as after a crash that wrote it again, the next attempt is offered once
        engine.writtenCommands();
        engine.deliverHeld();
        engine.publish(held.get(0));
        List<StepReady> offered = engine.readySteps(StepType.AUTOMATED);
        assertThat(offered).extracting(StepReady::attempt).containsExactly(2);
        engine.logging(CommandLogging.DELIVER);
        engine.advance(Duration.ofSeconds(5));
        assertThat(engine.writtenCommands()).as("nothing left to fire").isEmpty();
        assertThat(engine.instance(ID).step("charge").orElseThrow().attempt()).isEqualTo(2);
    }

    @Test
    void shouldWriteATimersCommandAgainWhenWritingItFailed() {
        // given a failed attempt whose backoff has passed while the broker could not be reached
        failFirstAttempt();
        engine.logging(CommandLogging.FAIL);
        engine.advance(Duration.ofMillis(1_100));
        assertThat(engine.readySteps(StepType.AUTOMATED)).isEmpty();

        // when the broker can be reached again
        engine.logging(CommandLogging.DELIVER);
        engine.advance(Duration.ofMillis(100));

        // then the timer fires: it was not lost with the failed write
        assertThat(engine.readySteps(StepType.AUTOMATED)).extracting(StepReady::attempt).containsExactly(2);
    }

    @Test
    void shouldStopWritingForThePunctuationWhenTheLogRefusesACommandAtOnce() {
        // given two failed attempts whose backoff has passed while the producer refuses at once, as it does after
        // waiting in vain for the broker: each refusal has held the stream thread, so one is enough per punctuation
        String other = "01JW0000000000000000000009";
        engine.register("automated.yaml");
        engine.start(ID, "billing", Map.of("amount", 12));
        engine.start(other, "billing", Map.of("amount", 13));
        engine.workerError(ID, "charge", 1, "declined");
        engine.workerError(other, "charge", 1, "declined");
        engine.readySteps(StepType.AUTOMATED);
        engine.logging(CommandLogging.REFUSE);
        engine.advance(Duration.ofMillis(1_100));
        engine.advance(Duration.ofMillis(100));
        assertThat(engine.refused()).isEqualTo(2);

        // when the broker answers again
        engine.logging(CommandLogging.DELIVER);
        engine.advance(Duration.ofMillis(100));

        // then both timers fire
        assertThat(engine.readySteps(StepType.AUTOMATED)).extracting(StepReady::instanceId).containsExactlyInAnyOrder(ID, other);
    }

    @Test
    void shouldWriteAtMostFourPunctuationsWorthAheadOfWhatTheEngineHasRead() {
        // given an engine that fires 2 timers per punctuation, and 10 step timeouts due while it does not read its log
        try (EngineHarness behind = new EngineHarness(new EngineConfig(Duration.ofMillis(100), new CallbackIds(EngineHarness.SECRET), 2))) {
            behind.register("quick-form.yaml", TimerFiringTest.QUICK_FORM.getBytes(StandardCharsets.UTF_8));
            for (int i = 0; i < 10; i++) {
                behind.start("01JW00000000000000000000%02d".formatted(i + 10), "quick-form", Map.of());
            }
            behind.logging(CommandLogging.HOLD);

            // when many punctuations pass
            for (int i = 0; i < 10; i++) {
                behind.advance(Duration.ofMillis(1_000));
            }

            // then it has written 8 commands, not one per due timer
            assertThat(behind.held()).hasSize(8);

            // and once it reads them, it writes the rest
            behind.logging(CommandLogging.DELIVER);
            behind.deliverHeld();
            behind.advance(Duration.ofMillis(100));
            assertThat(behind.writtenCommands()).filteredOn(FireTimer.class::isInstance).hasSize(10);
        }
    }

    @Test
    void shouldRemoveAnExpiredInstanceOnceWhenItsExpiryIsReadTwice() {
        // given a cancelled instance past its retention, whose expiry is written but not read yet
        engine.register("webhook.yaml");
        engine.start(ID, "identity", Map.of());
        engine.cancel(ID, "identity");
        engine.logging(CommandLogging.HOLD);
        engine.advance(RETENTION.plusSeconds(1));
        engine.advance(Duration.ofMillis(100));
        List<Command> held = engine.held();
        assertThat(held).hasSize(1).first().isInstanceOf(ExpireInstance.class);

        // when it is read twice
        engine.writtenCommands();
        engine.deliverHeld();
        engine.publish(held.get(0));

        // then the instance is gone, and nothing is left to expire
        assertThat(engine.instance(ID)).isNull();
        try (var finished = engine.store(EngineTopology.FINISHED_STORE).all()) {
            assertThat(finished.hasNext()).as("left in the retention index").isFalse();
        }
        engine.logging(CommandLogging.DELIVER);
        engine.advance(Duration.ofMillis(100));
        assertThat(engine.writtenCommands()).isEmpty();
    }

    @Test
    void shouldDecideAReleasedStartOnceWhenItsReleaseIsReadTwice() {
        // given a start held until its process arrives, whose release is written but not read yet
        StartInstance start = engine.startCommand(ID, "two-step", Map.of("title", "t"), "1.0");
        engine.publish(start);
        engine.register("two-step.yaml");
        engine.logging(CommandLogging.HOLD);
        engine.advance(Duration.ofMillis(100));
        engine.advance(Duration.ofMillis(100));
        List<Command> held = engine.held();
        assertThat(held).hasSize(1).first().isInstanceOf(ReleaseStart.class);

        // when it is read twice
        engine.writtenCommands();
        engine.deliverHeld();
        engine.publish(held.get(0));

        // then the sender heard once that its instance started, and the instance started once
        assertThat(engine.repliesTo(start.commandId())).isEqualTo(1);
        assertThat(engine.reply(start.commandId()).orElseThrow().status()).isEqualTo(201);
        assertThat(engine.instance(ID).state()).isEqualTo(InstanceState.WAITING);
        assertThat(engine.readySteps(StepType.FORM)).hasSize(1);
    }

    @Test
    void shouldFireATimerCommandOfAnEarlierEngineThatRemovedTheTimerAsItWroteIt() {
        // given a failed attempt whose retry timer an engine of the previous version took from the store as it fired
        failFirstAttempt();
        engine.logging(CommandLogging.HOLD);
        engine.advance(Duration.ofMillis(1_100));
        FireTimer fire = (FireTimer) engine.held().get(0);
        engine.store(EngineTopology.TIMERS_STORE).delete(Timer.firedBy(fire).storeKey());

        // when its command, as that version wrote it, is read
        engine.publishAsJson(new FireTimer(fire.workspace(), fire.kind(), fire.target(), fire.stepId(), fire.attempt(), fire.dueAt(), null));

        // then the timer fires
        assertThat(engine.readySteps(StepType.AUTOMATED)).extracting(StepReady::attempt).containsExactly(2);
    }

    @Test
    void shouldDecideAReleasedStartOfAnEarlierEngineThatLetTheStartGoAsItWroteIt() {
        // given a start held until its process arrived, which an engine of the previous version let go as it wrote the release
        StartInstance start = engine.startCommand(ID, "two-step", Map.of("title", "t"), "1.0");
        engine.publish(start);
        Instant receivedAt = engine.now();
        engine.register("two-step.yaml");
        engine.store(EngineTopology.WAITING_STARTS_STORE).delete(new WaitingStart(start, receivedAt).storeKey());

        // when its release, as that version wrote it, is read
        engine.publishAsJson(new ReleaseStart(start, receivedAt, false, null));

        // then the start is decided
        assertThat(engine.reply(start.commandId()).orElseThrow().status()).isEqualTo(201);
        assertThat(engine.instance(ID).state()).isEqualTo(InstanceState.WAITING);
    }

    /** The instance's one automated step failed its first attempt; the retry waits for a 1 s backoff. */
    private void failFirstAttempt() {
        engine.register("automated.yaml");
        engine.start(ID, "billing", Map.of("amount", 12));
        engine.workerError(ID, "charge", 1, "declined");
        engine.readySteps(StepType.AUTOMATED);
    }
}
