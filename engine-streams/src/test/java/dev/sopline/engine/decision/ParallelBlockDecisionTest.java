package dev.sopline.engine.decision;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sopline.engine.state.Instance;
import dev.sopline.engine.state.StepRun;
import dev.sopline.schemas.instance.InstanceState;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The decisions of a parallel block as a state table: instance state × command → active steps, instance state and
 * the events published, in order. Pure code: handlers and decider, no Kafka. The process ({@code parallel.yaml}):
 * {@code intake}, then a block of branch {@code credit} ({@code score}, automated, 2 attempts, 1h timeout) and branch
 * {@code identity} ({@code kyc}, webhook, then {@code kyc-review}, form), then {@code decide}.
 */
class ParallelBlockDecisionTest {

    private static final DeciderFixture PROCESS = new DeciderFixture("/processes/parallel.yaml");

    private static Function<Instance, Decision> submit(String stepId, Map<String, Object> outputs) {
        return PROCESS.submit(stepId, outputs);
    }

    private static Function<Instance, Decision> result(String stepId, int attempt, Map<String, Object> outputs) {
        return PROCESS.result(stepId, attempt, outputs);
    }

    private static Function<Instance, Decision> error(String stepId, int attempt) {
        return PROCESS.error(stepId, attempt);
    }

    private static Function<Instance, Decision> callback(Map<String, Object> payload) {
        return PROCESS.callback("kyc", payload);
    }

    private static Function<Instance, Decision> cancel() {
        return PROCESS.cancel();
    }

    private static Function<Instance, Decision> retryDue(String stepId) {
        return PROCESS.retryDue(stepId);
    }

    private static Function<Instance, Decision> timeoutDue(String stepId) {
        return PROCESS.timeoutDue(stepId);
    }

    // --- states, each reached by deciding commands from the start

    private static Instance started() {
        return PROCESS.start(Map.of("applicant", "Ada"));
    }

    private static Instance after(Instance instance, Function<Instance, Decision> command) {
        return DeciderFixture.after(instance, command);
    }

    private static Instance atBlock() {
        return after(started(), submit("intake", Map.of("amount", 5000)));
    }

    private static Instance scoreDone() {
        return after(atBlock(), result("score", 1, Map.of("value", 710, "status", "scored")));
    }

    private static Instance kycDone() {
        return after(atBlock(), callback(Map.of("status", "verified")));
    }

    private static Instance identityDone() {
        return after(kycDone(), submit("kyc-review", Map.of("ok", "yes")));
    }

    private static Instance scoreWaitsForRetry() {
        return after(atBlock(), error("score", 1));
    }

    private static Instance scoreOnLastAttempt() {
        return after(scoreWaitsForRetry(), retryDue("score"));
    }

    private static Instance cancelled() {
        return after(atBlock(), cancel());
    }

    static Stream<Arguments> table() {
        Map<String, Object> scored = Map.of("value", 710, "status", "scored");
        return Stream.of(
                // given, state | when | then: active steps | instance | events
                row("intake active", started(), "intake submitted", submit("intake", Map.of("amount", 5000)),
                        List.of("score", "kyc"), InstanceState.RUNNING,
                        List.of("intake active->completed", "score pending->active", "ready score", "kyc pending->active", "ready kyc",
                                "instance waiting->running")),
                row("score, kyc active", atBlock(), "score's result", result("score", 1, scored),
                        List.of("kyc"), InstanceState.WAITING,
                        List.of("score active->completed", "instance running->waiting")),
                row("score, kyc active", atBlock(), "kyc's callback", callback(Map.of("status", "verified")),
                        List.of("score", "kyc-review"), InstanceState.RUNNING,
                        List.of("kyc active->completed", "kyc-review pending->active", "ready kyc-review")),
                row("kyc active, score completed", scoreDone(), "kyc's callback", callback(Map.of("status", "verified")),
                        List.of("kyc-review"), InstanceState.WAITING,
                        List.of("kyc active->completed", "kyc-review pending->active", "ready kyc-review")),
                row("score active, identity completed", identityDone(), "score's result", result("score", 1, scored),
                        List.of("decide"), InstanceState.WAITING,
                        List.of("score active->completed", "decide pending->active", "ready decide", "instance running->waiting")),
                row("score, kyc active", atBlock(), "score's attempt 1 fails", error("score", 1),
                        List.of("score", "kyc"), InstanceState.RUNNING,
                        List.of()),
                row("score waits for its retry, kyc active", scoreWaitsForRetry(), "backoff passed", retryDue("score"),
                        List.of("score", "kyc"), InstanceState.RUNNING,
                        List.of("ready score")),
                row("score on its last attempt, kyc active", scoreOnLastAttempt(), "score's attempt 2 fails", error("score", 2),
                        List.of(), InstanceState.FAILED,
                        List.of("score active->failed", "kyc active->cancelled", "instance running->failed")),
                row("score, kyc active", atBlock(), "score's timeout", timeoutDue("score"),
                        List.of(), InstanceState.FAILED,
                        List.of("score active->failed", "kyc active->cancelled", "instance running->failed")),
                row("score, kyc-review active", kycDone(), "cancel", cancel(),
                        List.of(), InstanceState.CANCELLED,
                        List.of("score active->cancelled", "kyc-review active->cancelled", "instance running->cancelled")),
                row("cancelled", cancelled(), "score's late result", result("score", 1, scored),
                        List.of(), InstanceState.CANCELLED,
                        null));
    }

    private static Arguments row(String given, Instance state, String when, Function<Instance, Decision> command,
                                 List<String> active, InstanceState instanceState, List<String> events) {
        return Arguments.of(given, state, when, command, active, instanceState, events);
    }

    /** A null {@code events} means the command is ignored: nothing changes, nobody is told. */
    @ParameterizedTest(name = "given {0}, when {2}: active {4}, instance {5}")
    @MethodSource("table")
    void shouldDecide(String given, Instance state, String when, Function<Instance, Decision> command,
                      List<String> active, InstanceState instanceState, List<String> events) {
        Decision decision = command.apply(state);

        Instance after = decision.newState().orElse(state);
        assertThat(after.activeSteps()).extracting(StepRun::id).as("active steps").containsExactlyElementsOf(active);
        assertThat(after.state()).as("instance state").isEqualTo(instanceState);
        if (events == null) {
            assertThat(decision.newState()).as("ignored").isEmpty();
            assertThat(decision.events()).isEmpty();
        } else {
            assertThat(decision.events()).extracting(DeciderFixture::describe).as("events").containsExactlyElementsOf(events);
        }
        if (instanceState == InstanceState.FAILED) {
            assertThat(after.error().stepId()).isEqualTo("score");
        }
    }

}
