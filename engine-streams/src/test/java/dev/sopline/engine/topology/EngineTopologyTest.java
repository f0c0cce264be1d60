package dev.sopline.engine.topology;

import static dev.sopline.engine.topology.EngineHarness.WORKSPACE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import dev.sopline.engine.state.Instance;
import dev.sopline.engine.state.StepRun;
import dev.sopline.schemas.command.Command;
import dev.sopline.schemas.command.CommandReply;
import dev.sopline.schemas.command.StartInstance;
import dev.sopline.schemas.command.SubmitStep;
import dev.sopline.schemas.definition.StepType;
import dev.sopline.schemas.event.InstanceStateChanged;
import dev.sopline.schemas.event.StateChangeEvents;
import dev.sopline.schemas.event.StepReady;
import dev.sopline.schemas.event.StepStateChanged;
import dev.sopline.schemas.instance.Assignee;
import dev.sopline.schemas.instance.InstanceState;
import dev.sopline.schemas.instance.PendingStep;
import dev.sopline.schemas.instance.StepState;
import dev.sopline.schemas.instance.StepView;
import dev.sopline.schemas.validation.Violation;
import io.cloudevents.CloudEvent;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class EngineTopologyTest {

    private static final String ID = "01JAAAAAAAAAAAAAAAAAAAAAAA";
    private static final String OTHER_ID = "01JBBBBBBBBBBBBBBBBBBBBBBB";

    private final EngineHarness engine = new EngineHarness();

    @AfterEach
    void close() {
        engine.close();
    }

    private StepRun step(String instanceId, String stepId) {
        return engine.instance(instanceId).step(stepId).orElseThrow();
    }

    // --- start

    @Test
    void shouldStartInstanceAndActivateFirstStepWhenInputsAreValid() {
        // given
        engine.register("two-step.yaml");

        // when
        CommandReply reply = engine.start(ID, "two-step", Map.of("title", "Q3 plan"));

        // then
        assertThat(reply.status()).isEqualTo(201);
        assertThat(reply.body()).isEqualTo(Map.of("id", ID, "process", "two-step", "version", "1.0", "state", "running",
                "started_at", EngineHarness.START.toString()));
        Instance instance = engine.instance(ID);
        assertThat(instance.state()).isEqualTo(InstanceState.WAITING);
        assertThat(instance.steps()).extracting(StepRun::id, StepRun::state)
                .containsExactly(tuple("draft", StepState.ACTIVE), tuple("review", StepState.PENDING));
        StepReady ready = engine.readySteps(StepType.FORM).get(0);
        assertThat(ready.stepId()).isEqualTo("draft");
        assertThat(ready.name()).isEqualTo("Write the draft");
        assertThat(ready.inputs()).isEqualTo(Map.of("title", "Q3 plan"));
        assertThat(ready.attempt()).isEqualTo(1);
    }

    @Test
    void shouldPublishStateChangesInOrderWhenInstanceStarts() {
        // given
        engine.register("two-step.yaml");

        // when
        engine.start(ID, "two-step", Map.of("title", "Q3 plan"));

        // then
        List<CloudEvent> events = engine.events();
        assertThat(events).extracting(CloudEvent::getType).containsExactly(
                StateChangeEvents.INSTANCE_STATE_CHANGED, StateChangeEvents.STEP_STATE_CHANGED, StateChangeEvents.INSTANCE_STATE_CHANGED);
        CloudEvent first = events.get(0);
        assertThat(first.getSubject()).isEqualTo(ID);
        assertThat(first.getSource().toString()).isEqualTo("/workspaces/default/processes/two-step");
        InstanceStateChanged created = StateChangeEvents.data(first, InstanceStateChanged.class);
        assertThat(created.from()).isNull();
        assertThat(created.to()).isEqualTo(InstanceState.RUNNING);
        StepStateChanged activated = StateChangeEvents.data(events.get(1), StepStateChanged.class);
        assertThat(activated.step().id()).isEqualTo("draft");
        assertThat(activated.from()).isEqualTo(StepState.PENDING);
        assertThat(activated.to()).isEqualTo(StepState.ACTIVE);
        InstanceStateChanged waiting = StateChangeEvents.data(events.get(2), InstanceStateChanged.class);
        assertThat(waiting.from()).isEqualTo(InstanceState.RUNNING);
        assertThat(waiting.to()).isEqualTo(InstanceState.WAITING);
    }

    @Test
    void shouldRejectStartWithDetailsWhenInputsAreInvalid() {
        // given
        engine.register("two-step.yaml");

        // when
        CommandReply reply = engine.start(ID, "two-step", Map.of("priority", "urgent"));

        // then
        assertThat(reply.status()).isEqualTo(422);
        assertThat(reply.error()).isEqualTo("invalid_inputs");
        assertThat(reply.details()).extracting(Violation::field, Violation::code, Violation::expected).containsExactlyInAnyOrder(
                tuple("inputs.title", "required", null),
                tuple("inputs.priority", "not_in_enum", List.of("low", "high")));
        assertThat(engine.instance(ID)).isNull();
    }

    @Test
    void shouldAnswerAsTheFirstTimeAndKeepOneInstanceWhenStartIsDeliveredTwice() {
        // given
        engine.register("two-step.yaml");
        CommandReply first = engine.start(ID, "two-step", Map.of("title", "a"));
        engine.events();

        // when
        CommandReply second = engine.start(ID, "two-step", Map.of("title", "a"));

        // then
        assertThat(second.status()).isEqualTo(201);
        assertThat(second.body()).isEqualTo(first.body());
        assertThat(engine.events()).hasSize(3);
    }

    // --- form steps and submit

    @Test
    void shouldRunEveryStepAndComputeOutputsWhenFormsAreSubmitted() {
        // given
        engine.register("two-step.yaml");
        engine.start(ID, "two-step", Map.of("title", "Q3 plan"));

        // when
        CommandReply draft = engine.submit(ID, "two-step", "draft", Map.of("text", "We grow."));
        StepReady review = engine.readySteps(StepType.FORM).get(1);
        engine.advance(Duration.ofMinutes(5));
        CommandReply verdict = engine.submit(ID, "two-step", "review", Map.of("verdict", "accept"));

        // then
        assertThat(draft.status()).isEqualTo(200);
        assertThat(draft.body()).isInstanceOf(Map.class);
        assertThat(((Map<?, ?>) draft.body()).get("state")).isEqualTo("completed");
        assertThat(((Map<?, ?>) draft.body()).get("outputs")).isEqualTo(Map.of("text", "We grow."));
        assertThat(review.inputs()).isEqualTo(Map.of("text", "We grow."));
        assertThat(verdict.status()).isEqualTo(200);
        Instance instance = engine.instance(ID);
        assertThat(instance.state()).isEqualTo(InstanceState.COMPLETED);
        assertThat(instance.completedAt()).isEqualTo(EngineHarness.START.plus(Duration.ofMinutes(5)));
        assertThat(instance.outputs()).isEqualTo(Map.of("verdict", "accept", "summary", "Q3 plan: accept"));
        assertThat(engine.pending()).isEmpty();
    }

    @Test
    void shouldRejectSubmitWithInvalidTransitionWhenStepIsNotActive() {
        // given
        engine.register("two-step.yaml");
        engine.start(ID, "two-step", Map.of("title", "t"));

        // when
        CommandReply early = engine.submit(ID, "two-step", "review", Map.of("verdict", "accept"));

        // then
        assertThat(early.status()).isEqualTo(422);
        assertThat(early.error()).isEqualTo("invalid_transition");
        assertThat(early.message()).contains("review").contains("pending");
    }

    @Test
    void shouldAcceptOneAndRejectTheOtherWhenTwoSubmitsRaceForOneStep() {
        // given
        engine.register("two-step.yaml");
        engine.start(ID, "two-step", Map.of("title", "t"));

        // when
        CommandReply first = engine.submit(ID, "two-step", "draft", Map.of("text", "one"));
        CommandReply second = engine.submit(ID, "two-step", "draft", Map.of("text", "two"));

        // then
        assertThat(first.status()).isEqualTo(200);
        assertThat(second.status()).isEqualTo(422);
        assertThat(second.error()).isEqualTo("invalid_transition");
        assertThat(step(ID, "draft").outputs()).isEqualTo(Map.of("text", "one"));
    }

    @Test
    void shouldRejectSubmitWithDetailsWhenOutputsAreInvalid() {
        // given
        engine.register("two-step.yaml");
        engine.start(ID, "two-step", Map.of("title", "t"));
        engine.submit(ID, "two-step", "draft", Map.of("text", "x"));

        // when
        CommandReply reply = engine.submit(ID, "two-step", "review", Map.of("verdict", "maybe", "extra", 1));

        // then
        assertThat(reply.status()).isEqualTo(422);
        assertThat(reply.error()).isEqualTo("invalid_outputs");
        assertThat(reply.details()).extracting(Violation::field, Violation::code)
                .containsExactlyInAnyOrder(tuple("outputs.verdict", "not_in_enum"), tuple("outputs.extra", "unknown_field"));
        assertThat(step(ID, "review").state()).isEqualTo(StepState.ACTIVE);
    }

    @Test
    void shouldRejectSubmitWithNotFoundWhenInstanceStepProcessOrWorkspaceDoNotMatch() {
        // given
        engine.register("two-step.yaml");
        engine.start(ID, "two-step", Map.of("title", "t"));

        // when / then
        assertThat(engine.submit(OTHER_ID, "two-step", "draft", Map.of("text", "x")).status()).isEqualTo(404);
        assertThat(engine.submit(ID, "two-step", "nope", Map.of()).status()).isEqualTo(404);
        assertThat(engine.submit(ID, "billing", "draft", Map.of("text", "x")).status()).isEqualTo(404);
        CommandReply otherWorkspace = engine.send(new SubmitStep("cmd-x", "acme", ID, "two-step", "draft", Map.of("text", "x"), null));
        assertThat(otherWorkspace.status()).isEqualTo(404);
        assertThat(otherWorkspace.error()).isEqualTo("not_found");
        assertThat(step(ID, "draft").state()).isEqualTo(StepState.ACTIVE);
    }

    @Test
    void shouldRejectSubmitWhenInstanceIsTerminal() {
        // given
        engine.register("two-step.yaml");
        engine.start(ID, "two-step", Map.of("title", "t"));
        engine.cancel(ID, "two-step");

        // when
        CommandReply reply = engine.submit(ID, "two-step", "draft", Map.of("text", "x"));

        // then
        assertThat(reply.status()).isEqualTo(422);
        assertThat(reply.error()).isEqualTo("invalid_transition");
    }

    // --- automated steps

    @Test
    void shouldCompleteAutomatedStepWhenWorkerReportsOutputs() {
        // given
        engine.register("automated.yaml");
        engine.start(ID, "billing", Map.of("amount", 12.5));
        StepReady ready = engine.readySteps(StepType.AUTOMATED).get(0);

        // when
        engine.workerResult(ID, "charge", ready.attempt(), Map.of("receipt", "r-1"));

        // then
        assertThat(ready.run()).isEqualTo("billing.charge");
        assertThat(ready.inputs()).isEqualTo(Map.of("amount", 12.5));
        assertThat(engine.instance(ID).state()).isEqualTo(InstanceState.COMPLETED);
        assertThat(step(ID, "charge").outputs()).isEqualTo(Map.of("receipt", "r-1"));
    }

    @Test
    void shouldRetryWithExponentialBackoffWhenAttemptsFail() {
        // given
        engine.register("automated.yaml");
        engine.start(ID, "billing", Map.of("amount", 1));
        engine.readySteps(StepType.AUTOMATED);

        // when: attempt 1 fails, its backoff is 1s
        engine.workerError(ID, "charge", 1, "card_declined");
        engine.advance(Duration.ofMillis(900));

        // then
        assertThat(engine.readySteps(StepType.AUTOMATED)).isEmpty();
        assertThat(engine.pending()).isEmpty();
        engine.advance(Duration.ofMillis(200));
        assertThat(engine.readySteps(StepType.AUTOMATED)).extracting(StepReady::attempt).containsExactly(2);
        assertThat(engine.pending()).extracting(PendingStep::attempt).containsExactly(2);

        // when: attempt 2 fails, its backoff is 2s
        engine.workerError(ID, "charge", 2, "card_declined");
        engine.advance(Duration.ofMillis(1900));
        assertThat(engine.readySteps(StepType.AUTOMATED)).isEmpty();
        engine.advance(Duration.ofMillis(200));
        assertThat(engine.readySteps(StepType.AUTOMATED)).extracting(StepReady::attempt).containsExactly(3);

        // when: a success on the third attempt
        engine.workerResult(ID, "charge", 3, Map.of("receipt", "r-3"));
        assertThat(engine.instance(ID).state()).isEqualTo(InstanceState.COMPLETED);
        assertThat(step(ID, "charge").attempt()).isEqualTo(3);
    }

    @Test
    void shouldFailStepAndInstanceWhenLastAttemptFails() {
        // given
        engine.register("automated.yaml");
        engine.start(ID, "billing", Map.of("amount", 1));
        engine.workerError(ID, "charge", 1, "down");
        engine.advance(Duration.ofSeconds(1));
        engine.workerError(ID, "charge", 2, "down");
        engine.advance(Duration.ofSeconds(2));

        // when
        engine.workerError(ID, "charge", 3, "still_down");

        // then
        Instance instance = engine.instance(ID);
        assertThat(instance.state()).isEqualTo(InstanceState.FAILED);
        assertThat(instance.error().stepId()).isEqualTo("charge");
        assertThat(instance.error().code()).isEqualTo("still_down");
        assertThat(step(ID, "charge").state()).isEqualTo(StepState.FAILED);
        assertThat(engine.pending()).isEmpty();
    }

    @Test
    void shouldIgnoreResultWhenItAnswersAnOldAttemptOrArrivesTwice() {
        // given
        engine.register("automated.yaml");
        engine.start(ID, "billing", Map.of("amount", 1));
        engine.workerError(ID, "charge", 1, "flaky");
        engine.advance(Duration.ofSeconds(1));
        engine.events();

        // when
        engine.workerResult(ID, "charge", 1, Map.of("receipt", "late"));

        // then
        assertThat(engine.instance(ID).state()).isEqualTo(InstanceState.RUNNING);
        engine.workerResult(ID, "charge", 2, Map.of("receipt", "r-2"));
        int eventsAfterCompletion = engine.events().size();
        engine.workerResult(ID, "charge", 2, Map.of("receipt", "duplicate"));
        assertThat(step(ID, "charge").outputs()).isEqualTo(Map.of("receipt", "r-2"));
        assertThat(engine.events()).hasSize(eventsAfterCompletion);
    }

    @Test
    void shouldScheduleRetryWhenHttpWorkerSubmitsAnError() {
        // given
        engine.register("automated.yaml");
        engine.start(ID, "billing", Map.of("amount", 1));

        // when
        CommandReply reply = engine.submitError(ID, "billing", "charge", "timeout");

        // then
        assertThat(reply.status()).isEqualTo(200);
        assertThat(((Map<?, ?>) reply.body()).get("attempt")).isEqualTo(1);
        assertThat(engine.submitError(ID, "billing", "charge", "timeout").error()).isEqualTo("invalid_transition");
        engine.advance(Duration.ofSeconds(1));
        assertThat(step(ID, "charge").attempt()).isEqualTo(2);
    }

    @Test
    void shouldFailStepWithStepTimeoutWhenTimeoutPasses() {
        // given
        engine.register("automated.yaml");
        engine.start(ID, "billing", Map.of("amount", 1));

        // when
        engine.advance(Duration.ofMinutes(59));
        assertThat(engine.instance(ID).state()).isEqualTo(InstanceState.RUNNING);
        engine.advance(Duration.ofMinutes(2));

        // then
        Instance instance = engine.instance(ID);
        assertThat(instance.state()).isEqualTo(InstanceState.FAILED);
        assertThat(instance.error().code()).isEqualTo("step_timeout");
        assertThat(step(ID, "charge").state()).isEqualTo(StepState.FAILED);
    }

    // --- judgment steps

    @Test
    void shouldCompleteJudgmentWhenAgentIsConfident() {
        // given
        engine.register("judgment.yaml");
        engine.start(ID, "triage", Map.of("ticket", "Server down"));
        StepReady ready = engine.readySteps(StepType.JUDGMENT).get(0);

        // when
        engine.agentResult(ID, "classify", 1, Map.of("urgency", "high"), 0.93);

        // then
        assertThat(ready.judgment().instructions()).isEqualTo("Decide how urgent the ticket is.");
        StepRun step = step(ID, "classify");
        assertThat(step.state()).isEqualTo(StepState.COMPLETED);
        assertThat(step.decision().by()).isEqualTo("agent");
        assertThat(step.decision().confidence()).isEqualTo(0.93);
        assertThat(engine.instance(ID).state()).isEqualTo(InstanceState.COMPLETED);
    }

    @Test
    void shouldEscalateToHumanWhenAgentConfidenceIsBelowThreshold() {
        // given
        engine.register("judgment.yaml");
        engine.start(ID, "triage", Map.of("ticket", "Printer is slow"));
        assertThat(engine.instance(ID).state()).isEqualTo(InstanceState.RUNNING);

        // when
        engine.agentResult(ID, "classify", 1, Map.of("urgency", "low"), 0.55);

        // then
        Instance instance = engine.instance(ID);
        StepRun step = step(ID, "classify");
        assertThat(instance.state()).isEqualTo(InstanceState.WAITING);
        assertThat(step.state()).isEqualTo(StepState.ACTIVE);
        assertThat(step.escalated()).isTrue();
        assertThat(step.assignee()).isEqualTo(Assignee.HUMAN);
        PendingStep pending = engine.pending().get(0);
        assertThat(pending.escalated()).isTrue();
        assertThat(pending.assignee()).isEqualTo(Assignee.HUMAN);
        assertThat(pending.proposal()).isEqualTo(Map.of("urgency", "low"));
        assertThat(pending.decision().confidence()).isEqualTo(0.55);

        // when a person decides
        CommandReply reply = engine.submit(ID, "triage", "classify", Map.of("urgency", "high"));
        assertThat(reply.status()).isEqualTo(200);
        assertThat(step(ID, "classify").decision().by()).isEqualTo("human");
        assertThat(engine.instance(ID).state()).isEqualTo(InstanceState.COMPLETED);
    }

    @Test
    void shouldEscalateWhenAgentAnswerDoesNotFitTheOutputs() {
        engine.register("judgment.yaml");
        engine.start(ID, "triage", Map.of("ticket", "?"));

        engine.agentResult(ID, "classify", 1, Map.of("urgency", "catastrophic"), 0.99);

        assertThat(step(ID, "classify").escalated()).isTrue();
        assertThat(engine.instance(ID).state()).isEqualTo(InstanceState.WAITING);
    }

    @Test
    void shouldDiscardLateAgentResultWhenHumanDecidedFirst() {
        // given
        engine.register("judgment.yaml");
        engine.start(ID, "triage", Map.of("ticket", "?"));
        engine.submit(ID, "triage", "classify", Map.of("urgency", "low"));

        // when
        engine.agentResult(ID, "classify", 1, Map.of("urgency", "high"), 0.99);

        // then
        assertThat(step(ID, "classify").outputs()).isEqualTo(Map.of("urgency", "low"));
        assertThat(step(ID, "classify").decision().by()).isEqualTo("human");
    }

    // --- webhook steps

    @Test
    void shouldResolveWebhookStepOnceWhenCallbackArrives() {
        // given
        engine.register("webhook.yaml");
        engine.start(ID, "identity", Map.of());
        StepReady ready = engine.readySteps(StepType.WEBHOOK).get(0);
        String callbackId = ready.callbackId();

        // when
        CommandReply first = engine.callback(ID, callbackId, Map.of("status", "verified", "ref", "abc"));
        CommandReply replay = engine.callback(ID, callbackId, Map.of("status", "refused", "ref", "abc"));

        // then
        assertThat(callbackId).isNotBlank();
        assertThat(first.status()).isEqualTo(200);
        assertThat(first.body()).isEqualTo(Map.of("received", true, "step_id", "verify"));
        assertThat(replay.status()).isEqualTo(409);
        assertThat(replay.error()).isEqualTo("callback_already_resolved");
        assertThat(step(ID, "verify").outputs()).isEqualTo(Map.of("status", "verified", "reference", "ref-abc"));
        assertThat(engine.instance(ID).outputs()).isEqualTo(Map.of("status", "verified"));
    }

    @Test
    void shouldShowCallbackOnlyWhileStepIsActive() {
        engine.register("webhook.yaml");
        engine.start(ID, "identity", Map.of());
        StepView active = step(ID, "verify").view();
        assertThat(active.callbackId()).isNotNull();
        assertThat(active.assignee()).isEqualTo(Assignee.THIRD_PARTY);
        assertThat(engine.instance(ID).state()).isEqualTo(InstanceState.WAITING);
    }

    @Test
    void shouldAnswerNotFoundAndFailStepWhenCallbackExpired() {
        // given
        engine.register("webhook.yaml");
        engine.start(ID, "identity", Map.of());
        String callbackId = engine.readySteps(StepType.WEBHOOK).get(0).callbackId();

        // when
        engine.advance(Duration.ofHours(2).plusSeconds(1));
        CommandReply late = engine.callback(ID, callbackId, Map.of("status", "verified"));

        // then
        assertThat(late.status()).isEqualTo(404);
        assertThat(step(ID, "verify").state()).isEqualTo(StepState.FAILED);
        assertThat(engine.instance(ID).error().code()).isEqualTo("step_timeout");
        assertThat(engine.callback(ID, "01JUNKNOWNUNKNOWNUNKNOWN00", Map.of()).status()).isEqualTo(404);
    }

    @Test
    void shouldRejectCallbackWithDetailsWhenBodyLacksOutputs() {
        engine.register("webhook.yaml");
        engine.start(ID, "identity", Map.of());
        String callbackId = engine.readySteps(StepType.WEBHOOK).get(0).callbackId();

        CommandReply reply = engine.callback(ID, callbackId, Map.of("state", "ok"));

        assertThat(reply.status()).isEqualTo(422);
        assertThat(reply.error()).isEqualTo("invalid_outputs");
        assertThat(engine.callback(ID, callbackId, Map.of("status", "refused")).status()).isEqualTo(200);
    }

    // --- cancel

    @Test
    void shouldCancelFromEveryNonTerminalState() {
        engine.register("two-step.yaml");
        engine.register("automated.yaml");
        engine.register("judgment.yaml");
        // waiting on a form
        engine.start("01JW0000000000000000000000", "two-step", Map.of("title", "t"));
        // running an automated step
        engine.start("01JR0000000000000000000000", "billing", Map.of("amount", 1));
        // waiting for a retry backoff
        engine.start("01JB0000000000000000000000", "billing", Map.of("amount", 1));
        engine.workerError("01JB0000000000000000000000", "charge", 1, "x");
        // escalated judgment
        engine.start("01JE0000000000000000000000", "triage", Map.of("ticket", "t"));
        engine.agentResult("01JE0000000000000000000000", "classify", 1, Map.of("urgency", "low"), 0.1);

        for (var entry : Map.of("01JW0000000000000000000000", "two-step", "01JR0000000000000000000000", "billing",
                "01JB0000000000000000000000", "billing", "01JE0000000000000000000000", "triage").entrySet()) {
            CommandReply reply = engine.cancel(entry.getKey(), entry.getValue());
            assertThat(reply.status()).as(entry.getKey()).isEqualTo(200);
            assertThat(((Map<?, ?>) reply.body()).get("state")).isEqualTo("cancelled");
            Instance instance = engine.instance(entry.getKey());
            assertThat(instance.state()).isEqualTo(InstanceState.CANCELLED);
            assertThat(instance.steps().get(0).state()).isEqualTo(StepState.CANCELLED);
        }
        assertThat(engine.pending()).isEmpty();
        // a retry timer that fires after the cancel changes nothing
        engine.advance(Duration.ofSeconds(5));
        assertThat(engine.instance("01JB0000000000000000000000").state()).isEqualTo(InstanceState.CANCELLED);
    }

    @Test
    void shouldRejectCancelWithInvalidTransitionWhenInstanceIsTerminal() {
        engine.register("two-step.yaml");
        engine.start(ID, "two-step", Map.of("title", "t"));
        engine.cancel(ID, "two-step");

        CommandReply again = engine.cancel(ID, "two-step");

        assertThat(again.status()).isEqualTo(422);
        assertThat(again.error()).isEqualTo("invalid_transition");
        assertThat(engine.cancel(OTHER_ID, "two-step").status()).isEqualTo(404);
    }

    // --- versions

    @Test
    void shouldKeepRunningInstanceOnItsVersionWhenNewVersionIsPublished() {
        // given
        engine.register("two-step.yaml");
        engine.start(ID, "two-step", Map.of("title", "old"));
        String v2 = new String(EngineHarness.resource("two-step.yaml"), StandardCharsets.UTF_8)
                .replace("version: \"1.0\"", "version: \"1.10\"")
                .replace("name: text", "name: body")
                .replace("${steps.draft.outputs.text}", "${steps.draft.outputs.body}");

        // when
        CommandReply registered = engine.register("two-step v1.10", v2.getBytes(StandardCharsets.UTF_8));
        engine.start(OTHER_ID, "two-step", Map.of("title", "new"));

        // then
        assertThat(registered.status()).isEqualTo(201);
        assertThat(engine.instance(ID).version()).isEqualTo("1.0");
        assertThat(engine.instance(OTHER_ID).version()).isEqualTo("1.10");
        assertThat(engine.submit(ID, "two-step", "draft", Map.of("text", "old shape")).status()).isEqualTo(200);
        assertThat(engine.submit(OTHER_ID, "two-step", "draft", Map.of("body", "new shape")).status()).isEqualTo(200);
    }

    @Test
    void shouldAcceptIdenticalAndRejectChangedContentWhenVersionIsRegisteredAgain() {
        // given
        engine.register("two-step.yaml");

        // when
        CommandReply same = engine.register("two-step.yaml");
        String changed = new String(EngineHarness.resource("two-step.yaml"), StandardCharsets.UTF_8).replace("Write the draft", "Draft it");
        CommandReply different = engine.register("changed", changed.getBytes(StandardCharsets.UTF_8));

        // then
        assertThat(same.status()).isEqualTo(201);
        assertThat(different.status()).isEqualTo(422);
        assertThat(different.error()).isEqualTo("invalid_definition");
        assertThat(different.details()).extracting(Violation::field, Violation::code).containsExactly(tuple("process.version", "version_exists"));
    }

    @Test
    void shouldRejectAVersionThatIsTheSameNumberAsAPublishedOne() {
        // given
        String yaml = new String(EngineHarness.resource("two-step.yaml"), StandardCharsets.UTF_8);
        engine.register("two-step 1.0.0", yaml.replace("version: \"1.0\"", "version: \"1.0.0\"").getBytes(StandardCharsets.UTF_8));

        // when
        CommandReply shorter = engine.register("two-step.yaml");
        CommandReply padded = engine.register("two-step 01.0", yaml.replace("version: \"1.0\"", "version: \"01.0\"").getBytes(StandardCharsets.UTF_8));
        CommandReply next = engine.register("two-step 1.0.1", yaml.replace("version: \"1.0\"", "version: \"1.0.1\"").getBytes(StandardCharsets.UTF_8));

        // then
        for (CommandReply refused : List.of(shorter, padded)) {
            assertThat(refused.status()).isEqualTo(422);
            assertThat(refused.details()).extracting(Violation::field, Violation::code).containsExactly(tuple("process.version", "version_exists"));
            assertThat(refused.message()).contains("same number as version 1.0.0");
        }
        assertThat(next.status()).isEqualTo(201);
    }

    // --- schedules

    @Test
    void shouldStartOneInstancePerFireWhenScheduleIsDue() {
        // given
        engine.register("scheduled.yaml");

        // when
        engine.advance(Duration.ofHours(1));

        // then
        List<Command> starts = engine.followUps();
        assertThat(starts).hasSize(1);
        StartInstance start = (StartInstance) starts.get(0);
        assertThat(start.process()).isEqualTo("nightly");
        assertThat(start.workspace()).isEqualTo(WORKSPACE);
        assertThat(start.inputs()).isEqualTo(Map.of("region", "emea"));
        assertThat(start.origin()).isEqualTo("schedule");

        // when the engine was away for five hours
        engine.advance(Duration.ofHours(5));
        assertThat(engine.followUps()).as("missed fires start one instance, not one per miss").hasSize(1);
    }

    // --- idempotency keys

    private CommandReply idempotentStart(String instanceId, String key, String requestHash, Map<String, Object> inputs) {
        return engine.send(new dev.sopline.schemas.command.IdempotentCommand(
                new dev.sopline.schemas.command.IdempotencyKey("default|tok_1|" + key, requestHash),
                new StartInstance("cmd-" + instanceId + "-" + requestHash, WORKSPACE, instanceId, "two-step", inputs, null, StartInstance.API, null)));
    }

    @Test
    void shouldAnswerTheFirstReplyAndStartOneInstanceWhenAnIdempotentStartIsRepeated() {
        // given
        engine.register("two-step.yaml");
        CommandReply first = idempotentStart(ID, "key-1", "hash-a", Map.of("title", "t"));

        // when: the client retries; the gateway mints another instance id for the retry
        CommandReply repeat = idempotentStart(OTHER_ID, "key-1", "hash-a", Map.of("title", "t"));

        // then
        assertThat(repeat.status()).isEqualTo(201);
        assertThat(repeat.body()).isEqualTo(first.body());
        assertThat(engine.instance(ID)).isNotNull();
        assertThat(engine.instance(OTHER_ID)).isNull();
    }

    @Test
    void shouldRefuseWithIdempotencyKeyReusedWhenTheSameKeyComesWithAnotherRequest() {
        engine.register("two-step.yaml");
        idempotentStart(ID, "key-2", "hash-a", Map.of("title", "t"));

        CommandReply other = idempotentStart(OTHER_ID, "key-2", "hash-b", Map.of("title", "different"));

        assertThat(other.status()).isEqualTo(422);
        assertThat(other.error()).isEqualTo("idempotency_key_reused");
        assertThat(engine.instance(OTHER_ID)).isNull();
    }

    @Test
    void shouldRepeatRejectionsAndForgetKeysAfterTwentyFourHours() {
        engine.register("two-step.yaml");
        CommandReply invalid = idempotentStart(ID, "key-3", "hash-a", Map.of());
        assertThat(invalid.status()).isEqualTo(422);
        assertThat(idempotentStart(ID, "key-3", "hash-a", Map.of()).error()).isEqualTo("invalid_inputs");

        engine.advance(Duration.ofHours(24).plusSeconds(1));

        CommandReply afterExpiry = idempotentStart(OTHER_ID, "key-3", "hash-b", Map.of("title", "now valid"));
        assertThat(afterExpiry.status()).isEqualTo(201);
        assertThat(engine.instance(OTHER_ID)).isNotNull();
    }
}
