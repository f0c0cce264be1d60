package dev.sopline.engine.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import dev.sopline.engine.decision.CallbackIds;
import dev.sopline.engine.decision.InstanceBudget;
import dev.sopline.engine.state.Instance;
import dev.sopline.engine.state.StepRun;
import dev.sopline.schemas.command.Actor;
import dev.sopline.schemas.command.CommandReply;
import dev.sopline.schemas.command.ErrorCodes;
import dev.sopline.schemas.command.RetireProcess;
import dev.sopline.schemas.command.RetryInstance;
import dev.sopline.schemas.command.SubmitStep;
import dev.sopline.schemas.definition.StepType;
import dev.sopline.schemas.event.InstanceRetried;
import dev.sopline.schemas.event.StateChangeEvents;
import dev.sopline.schemas.event.StepReady;
import dev.sopline.schemas.instance.InstanceState;
import dev.sopline.schemas.instance.InstanceView;
import dev.sopline.schemas.instance.StepError;
import dev.sopline.schemas.instance.PendingStep;
import dev.sopline.schemas.instance.StepState;
import dev.sopline.schemas.json.Json;
import io.cloudevents.CloudEvent;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@code POST /sop/:name/:id/retry} as the engine decides it: from each way a step fails, and inside a parallel block. */
class RetryTopologyTest {

    private static final String ID = "01JRAAAAAAAAAAAAAAAAAAAAAA";
    private static final Actor OPERATOR = Actor.token("tok-1", "ops");

    private final EngineHarness engine = new EngineHarness();
    private final AtomicInteger retries = new AtomicInteger();

    @AfterEach
    void close() {
        engine.close();
    }

    private CommandReply retry(String process) {
        return engine.send(new RetryInstance("retry-" + retries.incrementAndGet(), EngineHarness.WORKSPACE, ID, process, OPERATOR));
    }

    private Instance instance() {
        return engine.instance(ID);
    }

    private InstanceView answered(CommandReply reply) {
        assertThat(reply.status()).isEqualTo(200);
        return Json.mapper().convertValue(reply.body(), InstanceView.class);
    }

    /** Fails {@code charge} of {@code billing} by spending its three attempts. */
    private void spendRetries() {
        engine.register("automated.yaml");
        engine.start(ID, "billing", Map.of("amount", 12));
        failRound(1);
    }

    /** Fails {@code charge}'s three attempts from {@code first} on, with the policy's backoffs (1 s, 2 s) between them. */
    private void failRound(int first) {
        engine.workerError(ID, "charge", first, "declined");
        engine.advance(Duration.ofSeconds(1));
        engine.workerError(ID, "charge", first + 1, "declined");
        engine.advance(Duration.ofSeconds(2));
        engine.workerError(ID, "charge", first + 2, "declined");
        assertThat(instance().state()).isEqualTo(InstanceState.FAILED);
    }

    @Test
    void shouldStartANewAttemptOfAStepWhoseRetriesWereSpent() {
        // given
        spendRetries();
        engine.readySteps(StepType.AUTOMATED);

        // when
        InstanceView answer = answered(retry("billing"));

        // then the step is active again with attempt 4, offered to workers, and the errors are gone
        assertThat(answer.state()).isEqualTo(InstanceState.RUNNING);
        assertThat(answer.error()).isNull();
        assertThat(answer.completedAt()).isNull();
        assertThat(answer.steps()).singleElement().satisfies(step -> {
            assertThat(step.state()).isEqualTo(StepState.ACTIVE);
            assertThat(step.attempt()).isEqualTo(4);
            assertThat(step.error()).isNull();
        });
        assertThat(engine.readySteps(StepType.AUTOMATED)).extracting(StepReady::stepId, StepReady::attempt, StepReady::inputs)
                .containsExactly(tuple("charge", 4, Map.of("amount", 12)));
        assertThat(engine.pending()).extracting(PendingStep::stepId, PendingStep::attempt).containsExactly(tuple("charge", 4));

        // and the instance continues as usual
        engine.workerResult(ID, "charge", 4, Map.of("receipt", "r-1"));
        assertThat(instance().state()).isEqualTo(InstanceState.COMPLETED);
    }

    @Test
    void shouldPublishTheStateChangesAndThenARetriedEvent() {
        // given
        spendRetries();
        int before = engine.events().size();

        // when
        retry("billing");

        // then
        List<CloudEvent> events = engine.events().subList(before, engine.events().size());
        assertThat(events).extracting(CloudEvent::getType).containsExactly(StateChangeEvents.STEP_STATE_CHANGED,
                StateChangeEvents.INSTANCE_STATE_CHANGED, StateChangeEvents.INSTANCE_RETRIED);
        InstanceRetried retried = StateChangeEvents.data(events.get(2), InstanceRetried.class);
        assertThat(retried.stepId()).isEqualTo("charge");
        assertThat(retried.attempt()).isEqualTo(4);
        assertThat(retried.instance().state()).isEqualTo(InstanceState.RUNNING);
        assertThat(events.get(2).getSubject()).isEqualTo(ID);
    }

    @Test
    void shouldRestartTheTimeoutOfAStepThatTimedOut() {
        // given charge timed out after its hour
        engine.register("automated.yaml");
        engine.start(ID, "billing", Map.of("amount", 12));
        engine.advance(Duration.ofMinutes(61));
        assertThat(instance().error().code()).isEqualTo("step_timeout");

        // when
        answered(retry("billing"));

        // then attempt 2 has a deadline an hour from the retry, and it times out again only then
        StepRun charge = instance().step("charge").orElseThrow();
        assertThat(charge.attempt()).isEqualTo(2);
        assertThat(charge.deadline()).isEqualTo(engine.now().plus(Duration.ofHours(1)));
        engine.advance(Duration.ofMinutes(59));
        assertThat(instance().state()).isEqualTo(InstanceState.RUNNING);
        engine.advance(Duration.ofMinutes(2));
        assertThat(instance().state()).isEqualTo(InstanceState.FAILED);
    }

    @Test
    void shouldRetryAStepFailedByAWorkerErrorSubmittedOverHttp() {
        // given an HTTP worker reported the last attempt failed
        engine.register("automated.yaml");
        engine.start(ID, "billing", Map.of("amount", 12));
        engine.submitError(ID, "billing", "charge", "boom");
        engine.advance(Duration.ofSeconds(1));
        engine.submitError(ID, "billing", "charge", "boom");
        engine.advance(Duration.ofSeconds(2));
        engine.submitError(ID, "billing", "charge", "boom");
        assertThat(instance().error().code()).isEqualTo("boom");

        // when
        answered(retry("billing"));

        // then a submit for the new attempt completes the instance
        assertThat(engine.submit(ID, "billing", "charge", Map.of("receipt", "r-2")).status()).isEqualTo(200);
        assertThat(instance().state()).isEqualTo(InstanceState.COMPLETED);
    }

    @Test
    void shouldIssueANewCallbackUrlWhenAnExpiredWebhookIsRetried() {
        // given the webhook's two hours passed without a callback
        engine.register("webhook.yaml");
        engine.start(ID, "identity", Map.of());
        String expired = instance().step("verify").orElseThrow().callbackId();
        engine.advance(Duration.ofHours(2).plusSeconds(1));
        assertThat(instance().state()).isEqualTo(InstanceState.FAILED);

        // when
        InstanceView answer = answered(retry("identity"));

        // then the instance waits on the third party again, at a new URL; the old one stays dead
        assertThat(answer.state()).isEqualTo(InstanceState.WAITING);
        String fresh = instance().step("verify").orElseThrow().callbackId();
        assertThat(fresh).isNotNull().isNotEqualTo(expired);
        assertThat(engine.callback(ID, expired, Map.of("status", "verified", "ref", "x")).status()).isEqualTo(404);
        assertThat(engine.callback(ID, fresh, Map.of("status", "verified", "ref", "x")).status()).isEqualTo(200);
        assertThat(instance().state()).isEqualTo(InstanceState.COMPLETED);
    }

    @Test
    void shouldReactivateTheStepsOfOtherBranchesCancelledByTheFailure() {
        // given score failed in the block, which cancelled kyc in the other branch
        engine.register("parallel.yaml");
        engine.start(ID, "checks", Map.of("applicant", "Ada"));
        engine.submit(ID, "checks", "intake", Map.of("amount", 5000));
        engine.workerError(ID, "score", 1, "down");
        engine.advance(Duration.ofSeconds(1));
        engine.workerError(ID, "score", 2, "down");
        assertThat(instance().steps()).extracting(StepRun::id, StepRun::state).contains(
                tuple("score", StepState.FAILED), tuple("kyc", StepState.CANCELLED));

        // when
        answered(retry("checks"));

        // then both branches run again, and the block joins as usual
        assertThat(instance().steps()).extracting(StepRun::id, StepRun::state, StepRun::attempt).containsExactly(
                tuple("intake", StepState.COMPLETED, 1),
                tuple("score", StepState.ACTIVE, 3),
                tuple("kyc", StepState.ACTIVE, 2),
                tuple("kyc-review", StepState.PENDING, 0),
                tuple("decide", StepState.PENDING, 0));
        assertThat(instance().state()).isEqualTo(InstanceState.RUNNING);
        engine.workerResult(ID, "score", 3, Map.of("value", 700, "status", "ok"));
        engine.callback(ID, instance().step("kyc").orElseThrow().callbackId(), Map.of("status", "verified"));
        engine.submit(ID, "checks", "kyc-review", Map.of("ok", "yes"));
        assertThat(instance().activeSteps()).extracting(StepRun::id).containsExactly("decide");
    }

    @Test
    void shouldRefuseToRetryAnInstanceOfARetiredProcess() {
        // given charge failed, then its workspace was deleted (which retires its processes before cancelling instances)
        spendRetries();
        engine.send(new RetireProcess("retire-1", EngineHarness.WORKSPACE, "billing"));
        engine.readySteps(StepType.AUTOMATED);

        // when a retry sent before the deletion is decided after the retirement
        CommandReply reply = retry("billing");

        // then it is refused as a start would be: no step is handed out in a workspace nobody can see any more
        assertThat(reply.status()).isEqualTo(404);
        assertThat(reply.error()).isEqualTo(ErrorCodes.NOT_FOUND);
        assertThat(instance().state()).isEqualTo(InstanceState.FAILED);
        assertThat(engine.readySteps(StepType.AUTOMATED)).isEmpty();
    }

    @Test
    void shouldNotCountTheProposalsOfEarlierAttemptsAgainstTheBudget() {
        try (EngineHarness small = new EngineHarness(new EngineConfig(Duration.ofMillis(100), new CallbackIds(EngineHarness.SECRET), 500,
                new InstanceBudget(2048)))) {
            // given a judgment that times out after an hour, and proposals of about 800 bytes each
            small.register("timed-triage", TIMED_JUDGMENT.getBytes(StandardCharsets.UTF_8));
            small.start(ID, "timed-triage", Map.of("ticket", "Server down"));
            Map<String, Object> proposal = Map.of("urgency", "high", "note", "x".repeat(800));

            // when the agent escalates, the step times out and an operator retries it, twice
            for (int attempt = 1; attempt <= 2; attempt++) {
                small.agentResult(ID, "classify", attempt, proposal, 0.4);
                small.advance(Duration.ofMinutes(61));
                assertThat(small.instance(ID).state()).isEqualTo(InstanceState.FAILED);
                assertThat(small.send(new RetryInstance("retry-" + attempt, EngineHarness.WORKSPACE, ID, "timed-triage", OPERATOR)).status())
                        .isEqualTo(200);
            }
            small.agentResult(ID, "classify", 3, proposal, 0.4);

            // then the third proposal fits: the instance holds one proposal, not three
            StepRun classify = small.instance(ID).step("classify").orElseThrow();
            assertThat(classify.escalated()).isTrue();
            assertThat(classify.proposal()).isEqualTo(proposal);
            assertThat(small.submit(ID, "timed-triage", "classify", Map.of("urgency", "high")).status()).isEqualTo(200);
        }
    }

    private static final String TIMED_JUDGMENT = """
            engine: "0.1"
            process:
              name: timed-triage
              version: "1.0"
              inputs:
                - name: ticket
                  required: true
              steps:
                - id: classify
                  type: judgment
                  timeout: 1h
                  inputs:
                    ticket: "${inputs.ticket}"
                  judgment:
                    allow_agent: true
                    confidence_threshold: 0.8
                  outputs:
                    - name: urgency
                      type: enum
                      values: [low, high]
            """;

    @Test
    void shouldGiveARetriedStepItsWholeRetryPolicyAgain() {
        // given charge's three attempts were spent, and an operator retried
        spendRetries();
        answered(retry("billing"));

        // when attempts 4 and 5 fail as transient errors do
        engine.workerError(ID, "charge", 4, "still down");
        assertThat(instance().state()).as("attempt 4 is the first of three again, not one more").isEqualTo(InstanceState.RUNNING);
        engine.advance(Duration.ofSeconds(1));
        engine.workerError(ID, "charge", 5, "still down");
        engine.advance(Duration.ofSeconds(2));

        // then attempt 6 runs after the policy's backoff, and its result completes the instance
        assertThat(instance().step("charge").orElseThrow().attempt()).isEqualTo(6);
        engine.workerResult(ID, "charge", 6, Map.of("receipt", "r-6"));
        assertThat(instance().state()).isEqualTo(InstanceState.COMPLETED);
    }

    @Test
    void shouldFailARetriedStepOnceItsRoundIsSpent() {
        spendRetries();
        answered(retry("billing"));

        failRound(4);

        assertThat(instance().step("charge").orElseThrow().attempt()).isEqualTo(6);
    }

    @Test
    void shouldRefuseALateResultOfTheAttemptBeforeTheRetry() {
        // given an HTTP worker's attempt 3 timed out (here: failed) and an operator retried, starting attempt 4
        spendRetries();
        answered(retry("billing"));

        // when the worker's late error for attempt 3 arrives, naming its attempt
        CommandReply late = engine.send(new SubmitStep("late-3", EngineHarness.WORKSPACE, ID, "billing", "charge", null,
                StepError.of("declined", "from attempt 3"), OPERATOR, 3));

        // then it is refused, and attempt 4 goes on untouched until its own result
        assertThat(late.status()).isEqualTo(422);
        assertThat(late.error()).isEqualTo(ErrorCodes.INVALID_TRANSITION);
        assertThat(instance().state()).isEqualTo(InstanceState.RUNNING);
        assertThat(instance().step("charge").orElseThrow().attempt()).isEqualTo(4);
        CommandReply current = engine.send(new SubmitStep("current-4", EngineHarness.WORKSPACE, ID, "billing", "charge",
                Map.of("receipt", "r-4"), null, OPERATOR, 4));
        assertThat(current.status()).isEqualTo(200);
        assertThat(instance().state()).isEqualTo(InstanceState.COMPLETED);
    }

    @Test
    void shouldRefuseToRetryAnInstanceThatIsNotFailed() {
        // given
        engine.register("automated.yaml");
        engine.start(ID, "billing", Map.of("amount", 12));

        // when
        CommandReply running = retry("billing");
        engine.cancel(ID, "billing");
        CommandReply cancelled = retry("billing");

        // then
        assertThat(List.of(running, cancelled)).allSatisfy(reply -> {
            assertThat(reply.status()).isEqualTo(422);
            assertThat(reply.error()).isEqualTo(ErrorCodes.INVALID_TRANSITION);
        });
        assertThat(retry("other-process").status()).isEqualTo(404);
    }
}
