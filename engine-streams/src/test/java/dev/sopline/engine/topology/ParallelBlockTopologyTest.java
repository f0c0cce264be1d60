package dev.sopline.engine.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import dev.sopline.engine.state.Instance;
import dev.sopline.engine.state.StepRun;
import dev.sopline.schemas.command.CommandReply;
import dev.sopline.schemas.definition.StepType;
import dev.sopline.schemas.event.InstanceStateChanged;
import dev.sopline.schemas.event.StateChangeEvents;
import dev.sopline.schemas.event.StepReady;
import dev.sopline.schemas.event.StepStateChanged;
import dev.sopline.schemas.instance.InstanceState;
import dev.sopline.schemas.instance.PendingStep;
import dev.sopline.schemas.instance.StepState;
import io.cloudevents.CloudEvent;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Parallel blocks of engine 0.2 through the production topology: {@code intake}, then a block whose branch
 * {@code credit} runs {@code score} (automated) and whose branch {@code identity} runs {@code kyc} (webhook) then
 * {@code kyc-review} (form), then {@code decide}.
 */
class ParallelBlockTopologyTest {

    private static final String ID = "01JAAAAAAAAAAAAAAAAAAAAAAA";

    private final EngineHarness engine = new EngineHarness();

    @BeforeEach
    void register() {
        engine.register("parallel.yaml");
    }

    @AfterEach
    void close() {
        engine.close();
    }

    /** Starts an instance and submits {@code intake}: the block is reached. */
    private void reachBlock() {
        engine.start(ID, "checks", Map.of("applicant", "Ada"));
        engine.submit(ID, "checks", "intake", Map.of("amount", 5000));
    }

    private Instance instance() {
        return engine.instance(ID);
    }

    private List<String> activeSteps() {
        return instance().activeSteps().stream().map(StepRun::id).toList();
    }

    private String kycCallback() {
        return instance().step("kyc").orElseThrow().callbackId();
    }

    private void completeIdentityBranch() {
        engine.callback(ID, kycCallback(), Map.of("status", "verified"));
        engine.submit(ID, "checks", "kyc-review", Map.of("ok", "yes"));
    }

    private static String describe(CloudEvent event) {
        if (StateChangeEvents.INSTANCE_STATE_CHANGED.equals(event.getType())) {
            InstanceStateChanged changed = StateChangeEvents.data(event, InstanceStateChanged.class);
            return "instance %s->%s".formatted(changed.from() == null ? null : changed.from().wireName(), changed.to().wireName());
        }
        StepStateChanged changed = StateChangeEvents.data(event, StepStateChanged.class);
        return "%s %s->%s".formatted(changed.step().id(), changed.from().wireName(), changed.to().wireName());
    }

    private List<String> newEvents(int seenBefore) {
        List<CloudEvent> events = engine.events();
        return events.subList(seenBefore, events.size()).stream().map(ParallelBlockTopologyTest::describe).toList();
    }

    @Test
    void shouldActivateTheFirstStepOfEveryBranchAtOnceWhenTheBlockIsReached() {
        // given
        engine.start(ID, "checks", Map.of("applicant", "Ada"));
        int before = engine.events().size();

        // when
        engine.submit(ID, "checks", "intake", Map.of("amount", 5000));

        // then
        assertThat(instance().steps()).extracting(StepRun::id, StepRun::state).containsExactly(
                tuple("intake", StepState.COMPLETED),
                tuple("score", StepState.ACTIVE),
                tuple("kyc", StepState.ACTIVE),
                tuple("kyc-review", StepState.PENDING),
                tuple("decide", StepState.PENDING));
        assertThat(engine.readySteps(StepType.AUTOMATED)).singleElement().satisfies(ready -> {
            assertThat(ready.stepId()).isEqualTo("score");
            assertThat(ready.inputs()).isEqualTo(Map.of("amount", 5000));
        });
        assertThat(engine.readySteps(StepType.WEBHOOK)).extracting(StepReady::stepId, StepReady::inputs)
                .containsExactly(tuple("kyc", Map.of("applicant", "Ada")));
        assertThat(newEvents(before)).containsExactly(
                "intake active->completed", "score pending->active", "kyc pending->active", "instance waiting->running");
    }

    @Test
    void shouldListEachActiveStepInThePendingFeed() {
        // when
        reachBlock();

        // then
        assertThat(engine.pending()).extracting(PendingStep::instanceId, PendingStep::stepId, PendingStep::type)
                .containsExactlyInAnyOrder(tuple(ID, "score", StepType.AUTOMATED), tuple(ID, "kyc", StepType.WEBHOOK));
    }

    @Test
    void shouldRunEachBranchInOrder() {
        // given
        reachBlock();

        // when
        engine.callback(ID, kycCallback(), Map.of("status", "verified"));

        // then
        assertThat(activeSteps()).containsExactly("score", "kyc-review");
        assertThat(engine.readySteps(StepType.FORM)).extracting(StepReady::stepId, StepReady::inputs)
                .contains(tuple("kyc-review", Map.of("status", "verified")));
        assertThat(engine.pending()).extracting(PendingStep::stepId).containsExactlyInAnyOrder("score", "kyc-review");
    }

    @Test
    void shouldStartTheStepAfterTheBlockOnlyWhenEveryBranchCompletedCreditFirst() {
        // given
        reachBlock();

        // when: the short branch completes first, the join waits for the other
        engine.workerResult(ID, "score", 1, Map.of("value", 710, "status", "scored"));

        // then
        assertThat(activeSteps()).containsExactly("kyc");
        assertThat(instance().stepState("decide")).isEqualTo(StepState.PENDING);

        // when
        completeIdentityBranch();

        // then
        assertThat(activeSteps()).containsExactly("decide");
        assertThat(engine.readySteps(StepType.FORM)).extracting(StepReady::stepId, StepReady::inputs)
                .contains(tuple("decide", Map.of("score", 710, "ok", "yes")));
    }

    @Test
    void shouldStartTheStepAfterTheBlockOnlyWhenEveryBranchCompletedIdentityFirst() {
        // given
        reachBlock();

        // when
        completeIdentityBranch();

        // then
        assertThat(activeSteps()).containsExactly("score");
        assertThat(instance().stepState("decide")).isEqualTo(StepState.PENDING);

        // when
        engine.workerResult(ID, "score", 1, Map.of("value", 710, "status", "scored"));

        // then
        assertThat(activeSteps()).containsExactly("decide");
        assertThat(instance().state()).isEqualTo(InstanceState.WAITING);
    }

    @Test
    void shouldWaitOnlyWhenEveryActiveStepWaitsOnAPersonOrAThirdParty() {
        // when: a worker has score, a third party has kyc
        reachBlock();

        // then
        assertThat(instance().state()).isEqualTo(InstanceState.RUNNING);

        // when: only the third party is left
        int before = engine.events().size();
        engine.workerResult(ID, "score", 1, Map.of("value", 710, "status", "scored"));

        // then
        assertThat(instance().state()).isEqualTo(InstanceState.WAITING);
        assertThat(newEvents(before)).containsExactly("score active->completed", "instance running->waiting");
    }

    @Test
    void shouldStayRunningWhileAFailedAttemptWaitsForItsRetry() {
        // given
        reachBlock();

        // when
        engine.workerError(ID, "score", 1, "bureau_down");

        // then
        assertThat(instance().state()).isEqualTo(InstanceState.RUNNING);
        assertThat(activeSteps()).containsExactly("score", "kyc");

        // when: the backoff passes
        engine.advance(Duration.ofSeconds(2));

        // then
        assertThat(instance().step("score").orElseThrow().attempt()).isEqualTo(2);
        assertThat(engine.readySteps(StepType.AUTOMATED)).extracting(StepReady::stepId, StepReady::attempt)
                .containsExactly(tuple("score", 1), tuple("score", 2));
        assertThat(instance().stepState("kyc")).isEqualTo(StepState.ACTIVE);
    }

    @Test
    void shouldFailTheInstanceAndCancelTheOtherBranchWhenAStepSpendsItsRetries() {
        // given
        reachBlock();
        engine.workerError(ID, "score", 1, "bureau_down");
        engine.advance(Duration.ofSeconds(2));
        int before = engine.events().size();

        // when
        engine.workerError(ID, "score", 2, "bureau_down");

        // then
        Instance instance = instance();
        assertThat(instance.state()).isEqualTo(InstanceState.FAILED);
        assertThat(instance.error().stepId()).isEqualTo("score");
        assertThat(instance.error().code()).isEqualTo("bureau_down");
        assertThat(instance.steps()).extracting(StepRun::id, StepRun::state).containsExactly(
                tuple("intake", StepState.COMPLETED),
                tuple("score", StepState.FAILED),
                tuple("kyc", StepState.CANCELLED),
                tuple("kyc-review", StepState.PENDING),
                tuple("decide", StepState.PENDING));
        assertThat(newEvents(before)).containsExactly("score active->failed", "kyc active->cancelled", "instance running->failed");
        assertThat(engine.pending()).isEmpty();
    }

    @Test
    void shouldFailTheInstanceAndCancelTheOtherBranchWhenAStepTimesOut() {
        // given
        reachBlock();
        String callback = kycCallback();

        // when: score's one hour passes
        engine.advance(Duration.ofMinutes(61));

        // then
        Instance instance = instance();
        assertThat(instance.state()).isEqualTo(InstanceState.FAILED);
        assertThat(instance.error().stepId()).isEqualTo("score");
        assertThat(instance.error().code()).isEqualTo("step_timeout");
        assertThat(instance.stepState("kyc")).isEqualTo(StepState.CANCELLED);
        assertThat(engine.callback(ID, callback, Map.of("status", "verified")).status()).isEqualTo(404);
    }

    @Test
    void shouldCancelEveryActiveStep() {
        // given
        reachBlock();
        int before = engine.events().size();

        // when
        CommandReply reply = engine.cancel(ID, "checks");

        // then
        assertThat(reply.status()).isEqualTo(200);
        assertThat(instance().state()).isEqualTo(InstanceState.CANCELLED);
        assertThat(instance().steps()).extracting(StepRun::id, StepRun::state).containsExactly(
                tuple("intake", StepState.COMPLETED),
                tuple("score", StepState.CANCELLED),
                tuple("kyc", StepState.CANCELLED),
                tuple("kyc-review", StepState.PENDING),
                tuple("decide", StepState.PENDING));
        assertThat(newEvents(before)).containsExactly("score active->cancelled", "kyc active->cancelled", "instance running->cancelled");
        assertThat(engine.pending()).isEmpty();
    }

    @Test
    void shouldIgnoreALateResultOfACancelledSibling() {
        // given
        reachBlock();
        engine.cancel(ID, "checks");
        int before = engine.events().size();

        // when
        engine.workerResult(ID, "score", 1, Map.of("value", 710, "status", "scored"));

        // then
        assertThat(instance().stepState("score")).isEqualTo(StepState.CANCELLED);
        assertThat(newEvents(before)).isEmpty();
    }

    @Test
    void shouldTakeAnUnvaluedProcessOutputFromTheLastCompletedStepInFileOrder() {
        // given: kyc (later in the file) completes before score, both declaring 'status'
        reachBlock();
        engine.callback(ID, kycCallback(), Map.of("status", "verified"));
        engine.submit(ID, "checks", "kyc-review", Map.of("ok", "yes"));
        engine.workerResult(ID, "score", 1, Map.of("value", 710, "status", "scored"));

        // when
        engine.submit(ID, "checks", "decide", Map.of("verdict", "approve"));

        // then
        assertThat(instance().state()).isEqualTo(InstanceState.COMPLETED);
        assertThat(instance().outputs()).isEqualTo(Map.of("verdict", "approve", "status", "verified"));
    }

    @Test
    void shouldRefuseASubmitToAStepOfABranchNotReachedYet() {
        // given
        reachBlock();

        // when
        CommandReply reply = engine.submit(ID, "checks", "kyc-review", Map.of("ok", "yes"));

        // then
        assertThat(reply.status()).isEqualTo(422);
        assertThat(reply.error()).isEqualTo("invalid_transition");
    }

    @Test
    void shouldStartWithEveryBranchWhenTheFileBeginsWithABlockAndCompleteAtTheJoin() {
        // given
        engine.register("parallel-first.yaml");
        String id = "01JCCCCCCCCCCCCCCCCCCCCCCC";

        // when
        engine.start(id, "side-by-side", Map.of());

        // then
        assertThat(engine.instance(id).activeSteps()).extracting(StepRun::id).containsExactly("left-work", "right-work");
        assertThat(engine.instance(id).state()).isEqualTo(InstanceState.RUNNING);

        // when
        engine.workerResult(id, "right-work", 1, Map.of());
        engine.workerResult(id, "left-work", 1, Map.of());

        // then
        assertThat(engine.instance(id).state()).isEqualTo(InstanceState.COMPLETED);
    }

    @Test
    void shouldKeepARunningInstanceOnItsVersionWhenABlockVersionIsRegistered() {
        // given: a 0.1 instance at its first step
        engine.register("two-step.yaml");
        String id = "01JDDDDDDDDDDDDDDDDDDDDDDD";
        engine.start(id, "two-step", Map.of("title", "Q3 plan"));

        // when: version 2.0 runs both steps side by side, and the running instance goes on
        engine.register("two-step-parallel.yaml");
        engine.submit(id, "two-step", "draft", Map.of("text", "hello"));

        // then: still one step after another, as version 1.0 says
        assertThat(engine.instance(id).version()).isEqualTo("1.0");
        assertThat(engine.instance(id).activeSteps()).extracting(StepRun::id).containsExactly("review");
        String next = "01JEEEEEEEEEEEEEEEEEEEEEEE";
        engine.start(next, "two-step", Map.of("title", "Q4 plan"));
        assertThat(engine.instance(next).version()).isEqualTo("2.0");
        assertThat(engine.instance(next).activeSteps()).extracting(StepRun::id).containsExactly("draft", "review");
    }
}
