package dev.sopline.engine.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import dev.sopline.engine.api.serde.RecordSerde;
import dev.sopline.engine.state.HistoryRecord;
import dev.sopline.engine.state.HistoryStore;
import dev.sopline.schemas.command.Actor;
import dev.sopline.schemas.command.CancelInstance;
import dev.sopline.schemas.command.ReportStepResult;
import dev.sopline.schemas.command.RetryInstance;
import dev.sopline.schemas.command.StartInstance;
import dev.sopline.schemas.command.SubmitStep;
import dev.sopline.schemas.event.StepResult;
import dev.sopline.schemas.instance.HistoryEntry;
import dev.sopline.schemas.instance.JudgmentDecision;
import dev.sopline.schemas.json.Json;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** What an instance's history holds after each kind of change, and whom it names (CONTRACT section 11). */
class HistoryTopologyTest {

    private static final String ID = "01JHAAAAAAAAAAAAAAAAAAAAAA";
    private static final Actor ADA = Actor.token("tok-ada", "ada's laptop");
    private static final String SHA = "ab".repeat(32);

    private final EngineHarness engine = new EngineHarness();

    @AfterEach
    void close() {
        engine.close();
    }

    @SuppressWarnings("unchecked")
    private List<HistoryEntry> history() {
        KeyValueStore<String, HistoryRecord> store = (KeyValueStore<String, HistoryRecord>) (Object) engine.store(EngineTopology.HISTORY_STORE);
        return HistoryStore.page(store, EngineHarness.WORKSPACE, ID, 0, 500);
    }

    private static String line(HistoryEntry entry) {
        String what = entry.kind().equals(HistoryEntry.INSTANCE) ? "instance" : entry.stepId() + "#" + entry.attempt();
        return "%s %s->%s by %s".formatted(what, entry.from(), entry.to(), entry.by().type());
    }

    private List<String> lines() {
        return history().stream().map(HistoryTopologyTest::line).toList();
    }

    private void start(String process, Map<String, Object> inputs) {
        engine.send(new StartInstance("start-1", EngineHarness.WORKSPACE, ID, process, inputs, null, StartInstance.API, null, ADA));
    }

    private void submit(String process, String stepId, Map<String, Object> outputs) {
        engine.send(new SubmitStep("submit-" + stepId, EngineHarness.WORKSPACE, ID, process, stepId, outputs, null, ADA));
    }

    @Test
    void shouldRecordCreationAndEveryChangeInOrderWithWhoDidIt() {
        // when a person starts the instance and resolves both forms
        engine.register("two-step.yaml");
        start("two-step", Map.of("title", "Q3"));
        submit("two-step", "draft", Map.of("text", "draft text"));
        submit("two-step", "review", Map.of("verdict", "accept"));

        // then
        assertThat(lines()).containsExactly(
                "instance null->running by token",
                "draft#1 pending->active by engine",
                "instance running->waiting by engine",
                "draft#1 active->completed by token",
                "review#1 pending->active by engine",
                "review#1 active->completed by token",
                "instance waiting->completed by engine");
        HistoryEntry created = history().get(0);
        assertThat(created.by()).isEqualTo(ADA);
        assertThat(created.at()).isEqualTo(EngineHarness.START);
        assertThat(history()).extracting(HistoryEntry::seq).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L);
    }

    @Test
    void shouldRecordEachNewAttemptWithTheErrorOfTheFailedOneAndTheWorkerThatReported() {
        // given
        engine.register("automated.yaml");
        start("billing", Map.of("amount", 12));

        // when the worker fails once, the backoff passes, and the second attempt succeeds
        engine.workerError(ID, "charge", 1, "declined");
        engine.advance(Duration.ofSeconds(1));
        engine.workerResult(ID, "charge", 2, Map.of("receipt", "r-1"));

        // then
        assertThat(lines()).containsExactly(
                "instance null->running by token",
                "charge#1 pending->active by engine",
                "charge#2 active->active by timer",
                "charge#2 active->completed by worker",
                "instance running->completed by engine");
        HistoryEntry newAttempt = history().get(2);
        assertThat(newAttempt.detail()).isEqualTo(Map.of("error", Map.of("code", "declined", "message", "failed")));
        assertThat(history().get(3).by()).isEqualTo(new Actor(Actor.WORKER, "worker-1", null));
    }

    @Test
    void shouldKeepTheErrorOfAnAttemptThatFailedWhenTheInstanceIsCancelledDuringItsBackoff() {
        // given a first attempt that failed, its step waiting for the backoff before the next
        engine.register("automated.yaml");
        start("billing", Map.of("amount", 12));
        engine.workerError(ID, "charge", 1, "declined");

        // when the instance is cancelled before the next attempt
        engine.send(new CancelInstance("cancel-1", EngineHarness.WORKSPACE, ID, "billing", ADA));

        // then the step's cancellation tells why its last attempt ended
        assertThat(lines()).containsExactly(
                "instance null->running by token",
                "charge#1 pending->active by engine",
                "charge#1 active->cancelled by token",
                "instance running->cancelled by token");
        assertThat(history().get(2).detail()).isEqualTo(Map.of("error", Map.of("code", "declined", "message", "failed")));
    }

    @Test
    void shouldNameTheTimerForATimeoutAndTheTokenForARetryAndACancel() {
        // given
        engine.register("automated.yaml");
        start("billing", Map.of("amount", 12));

        // when it times out, is retried, and is cancelled
        engine.advance(Duration.ofMinutes(61));
        engine.send(new RetryInstance("retry-1", EngineHarness.WORKSPACE, ID, "billing", ADA));
        engine.send(new CancelInstance("cancel-1", EngineHarness.WORKSPACE, ID, "billing", ADA));

        // then
        assertThat(lines()).containsExactly(
                "instance null->running by token",
                "charge#1 pending->active by engine",
                "charge#1 active->failed by timer",
                "instance running->failed by timer",
                "charge#2 failed->active by token",
                "instance failed->running by token",
                "charge#2 active->cancelled by token",
                "instance running->cancelled by token");
        assertThat(history().get(2).detail()).extractingByKey("error").extracting("code").isEqualTo("step_timeout");
        assertThat(history().get(4).by()).isEqualTo(ADA);
    }

    @Test
    void shouldNameAnHttpWorkerByItsToken() {
        // given
        engine.register("automated.yaml");
        start("billing", Map.of("amount", 12));

        // when an HTTP worker submits the automated step's outputs
        submit("billing", "charge", Map.of("receipt", "r-1"));

        // then
        assertThat(history().get(2).by()).isEqualTo(new Actor(Actor.WORKER, ADA.id(), ADA.name()));
    }

    @Test
    void shouldNameACallbackByItsId() {
        // given
        engine.register("webhook.yaml");
        start("identity", Map.of());
        String callbackId = engine.instance(ID).step("verify").orElseThrow().callbackId();

        // when
        engine.callback(ID, callbackId, Map.of("status", "verified", "ref", "x"));

        // then
        assertThat(lines()).contains("verify#1 active->completed by callback");
        assertThat(history()).filteredOn(entry -> "completed".equals(entry.to()) && HistoryEntry.STEP.equals(entry.kind()))
                .extracting(HistoryEntry::by).containsExactly(new Actor(Actor.CALLBACK, callbackId, null));
    }

    @Test
    void shouldRecordAnAutoDecidedJudgmentWithTheAgentsDecision() {
        // given
        engine.register("judgment.yaml");
        start("triage", Map.of("ticket", "Server down"));

        // when the agent is sure
        agent(Map.of("urgency", "high"), 0.93);

        // then
        HistoryEntry decided = history().stream().filter(entry -> "completed".equals(entry.to()) && entry.stepId() != null)
                .findFirst().orElseThrow();
        assertThat(decided.by()).isEqualTo(new Actor(Actor.AGENT, "test-model", null));
        JsonNode decision = Json.mapper().valueToTree(decided.detail()).path("decision");
        assertThat(decision.path("by").asString()).isEqualTo("agent");
        assertThat(decision.path("model").asString()).isEqualTo("test-model");
        assertThat(decision.path("confidence").asDouble()).isEqualTo(0.93);
        assertThat(decision.path("rationale").asString()).isEqualTo("because");
        assertThat(decision.path("prompt_sha256").asString()).isEqualTo(SHA);
    }

    @Test
    void shouldPutTheAgentsDecisionAndProposalOnTheWaitingEntryWhenItEscalates() {
        // given
        engine.register("judgment.yaml");
        start("triage", Map.of("ticket", "Server down"));

        // when the agent is not sure enough
        agent(Map.of("urgency", "low"), 0.4);

        // then
        HistoryEntry waiting = history().stream().filter(entry -> HistoryEntry.INSTANCE.equals(entry.kind()) && "waiting".equals(entry.to()))
                .findFirst().orElseThrow();
        assertThat(waiting.from()).isEqualTo("running");
        assertThat(waiting.by()).isEqualTo(new Actor(Actor.AGENT, "test-model", null));
        JsonNode detail = Json.mapper().valueToTree(waiting.detail());
        assertThat(detail.path("decision").path("confidence").asDouble()).isEqualTo(0.4);
        assertThat(detail.path("decision").path("prompt_sha256").asString()).isEqualTo(SHA);
        assertThat(detail.path("proposal").path("urgency").asString()).isEqualTo("low");
    }

    @Test
    void shouldKeepAHistoryRecordWithinTheBrokersLimitWhenAnAgentProposesNearTheInstancesBudget() {
        // given
        engine.register("judgment.yaml");
        start("triage", Map.of("ticket", "Server down"));

        // when the agent escalates with a proposal of 60,000 numbers: about 240 KB of JSON, within the instance's
        // 256 KiB, and about 660 KB as the engine writes its records (a number such as 0.1 takes 11 bytes there)
        agent(Map.of("urgency", java.util.Collections.nCopies(60_000, 0.1)), 0.4);

        // then the instance waits for a person, with the proposal once in its history, on the waiting entry
        assertThat(engine.instance(ID).state()).isEqualTo(dev.sopline.schemas.instance.InstanceState.WAITING);
        @SuppressWarnings("unchecked")
        KeyValueStore<String, HistoryRecord> store = (KeyValueStore<String, HistoryRecord>) (Object) engine.store(EngineTopology.HISTORY_STORE);
        try (var records = store.all()) {
            records.forEachRemaining(record -> assertThat(RecordSerde.write(record.value).length).as(record.key)
                    .isLessThanOrEqualTo(RecordSerde.MAX_RECORD_BYTES));
        }
        HistoryEntry waiting = history().stream().filter(entry -> "waiting".equals(entry.to())).findFirst().orElseThrow();
        assertThat(Json.mapper().valueToTree(waiting.detail()).path("proposal").path("urgency").size()).isEqualTo(60_000);
        HistoryEntry escalated = history().stream().filter(entry -> "classify".equals(entry.stepId()) && entry.detail() != null
                && Boolean.TRUE.equals(entry.detail().get("escalated"))).findFirst().orElseThrow();
        assertThat(escalated.detail()).doesNotContainKey("proposal");
    }

    private void agent(Map<String, Object> outputs, double confidence) {
        engine.publish(new ReportStepResult(new StepResult(EngineHarness.WORKSPACE, ID, "classify", 1, outputs, null,
                new JudgmentDecision(JudgmentDecision.AGENT, confidence, "because", "test-model", SHA), "agent", engine.now())));
    }

    @Test
    void shouldPageThroughTheHistoryFromACursor() {
        // given
        engine.register("two-step.yaml");
        start("two-step", Map.of("title", "Q3"));
        submit("two-step", "draft", Map.of("text", "draft text"));

        // when
        @SuppressWarnings("unchecked")
        KeyValueStore<String, HistoryRecord> store = (KeyValueStore<String, HistoryRecord>) (Object) engine.store(EngineTopology.HISTORY_STORE);
        List<HistoryEntry> first = HistoryStore.page(store, EngineHarness.WORKSPACE, ID, 0, 2);
        List<HistoryEntry> rest = HistoryStore.page(store, EngineHarness.WORKSPACE, ID, 2, 10);

        // then the first page shows one more than asked, which tells that more follow
        assertThat(first).extracting(HistoryEntry::seq).containsExactly(1L, 2L, 3L);
        assertThat(rest).extracting(HistoryEntry::seq, HistoryEntry::to).containsExactly(
                tuple(3L, "waiting"), tuple(4L, "completed"), tuple(5L, "active"));
    }
}
