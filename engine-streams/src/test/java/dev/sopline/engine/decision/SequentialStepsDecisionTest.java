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
 * Steps that run one after another (engine 0.1) as a state table: instance state × command → active step, instance
 * state and the events, in order. {@code two-step.yaml}: forms {@code draft} then {@code review}; {@code automated.yaml}:
 * {@code charge}, automated, 3 attempts, 1h timeout; {@code judgment.yaml}: {@code classify}, agent first.
 */
class SequentialStepsDecisionTest {

    private static final DeciderFixture TWO_STEP = new DeciderFixture("/processes/two-step.yaml");
    private static final DeciderFixture BILLING = new DeciderFixture("/processes/automated.yaml");
    private static final DeciderFixture JUDGMENT = new DeciderFixture("/processes/judgment.yaml");

    static Stream<Arguments> table() {
        Instance atDraft = TWO_STEP.start(Map.of("title", "Q3 plan"));
        Instance atReview = DeciderFixture.after(atDraft, TWO_STEP.submit("draft", Map.of("text", "hello")));
        Instance charging = BILLING.start(Map.of("amount", 12));
        Instance chargeWaitsForRetry = DeciderFixture.after(charging, BILLING.error("charge", 1));
        Instance chargeAttempt2 = DeciderFixture.after(chargeWaitsForRetry, BILLING.retryDue("charge"));
        Instance chargeAttempt3 = DeciderFixture.after(DeciderFixture.after(chargeAttempt2, BILLING.error("charge", 2)), BILLING.retryDue("charge"));
        Instance classifying = JUDGMENT.start(judgmentInputs());
        return Stream.of(
                // given | when | then: active steps | instance | events (null: ignored)
                row("draft active", atDraft, "draft submitted", TWO_STEP.submit("draft", Map.of("text", "hello")),
                        List.of("review"), InstanceState.WAITING,
                        List.of("draft active->completed", "review pending->active", "ready review")),
                row("review active", atReview, "review submitted", TWO_STEP.submit("review", Map.of("verdict", "accept")),
                        List.of(), InstanceState.COMPLETED,
                        List.of("review active->completed", "instance waiting->completed")),
                row("review active", atReview, "cancel", TWO_STEP.cancel(),
                        List.of(), InstanceState.CANCELLED,
                        List.of("review active->cancelled", "instance waiting->cancelled")),
                row("charge attempt 1 running", charging, "worker's result", BILLING.result("charge", 1, Map.of("receipt", "r-1")),
                        List.of(), InstanceState.COMPLETED,
                        List.of("charge active->completed", "instance running->completed")),
                row("charge attempt 1 running", charging, "attempt 1 fails", BILLING.error("charge", 1),
                        List.of("charge"), InstanceState.RUNNING,
                        List.of()),
                row("charge waits for its retry", chargeWaitsForRetry, "backoff passed", BILLING.retryDue("charge"),
                        List.of("charge"), InstanceState.RUNNING,
                        List.of("ready charge")),
                row("charge attempt 2 running", chargeAttempt2, "attempt 1's late result", BILLING.result("charge", 1, Map.of("receipt", "r-1")),
                        List.of("charge"), InstanceState.RUNNING,
                        null),
                row("charge attempt 3 running", chargeAttempt3, "attempt 3 fails", BILLING.error("charge", 3),
                        List.of(), InstanceState.FAILED,
                        List.of("charge active->failed", "instance running->failed")),
                row("charge attempt 1 running", charging, "timeout", BILLING.timeoutDue("charge"),
                        List.of(), InstanceState.FAILED,
                        List.of("charge active->failed", "instance running->failed")),
                row("classify with the agent", classifying, "agent unsure", JUDGMENT.result("classify", 1, Map.of("urgency", "high")),
                        List.of("classify"), InstanceState.WAITING,
                        List.of("classify active->active (escalated)", "instance running->waiting")));
    }

    private static Map<String, Object> judgmentInputs() {
        return Map.of("ticket", "Server down");
    }

    private static Arguments row(String given, Instance state, String when, Function<Instance, Decision> command,
                                 List<String> active, InstanceState instanceState, List<String> events) {
        return Arguments.of(given, state, when, command, active, instanceState, events);
    }

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
    }
}
