package dev.sopline.engine.decision;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sopline.engine.handler.CommandHandlers;
import dev.sopline.engine.handler.DefinitionLookup;
import dev.sopline.engine.handler.TimerHandler;
import dev.sopline.engine.state.Instance;
import dev.sopline.engine.state.ProcessVersions;
import dev.sopline.engine.state.StepRun;
import dev.sopline.engine.state.Timer;
import dev.sopline.schemas.command.CancelInstance;
import dev.sopline.schemas.command.InstanceCommand;
import dev.sopline.schemas.command.ReportStepResult;
import dev.sopline.schemas.command.ResolveCallback;
import dev.sopline.schemas.command.StartInstance;
import dev.sopline.schemas.command.SubmitStep;
import dev.sopline.schemas.definition.ProcessDefinition;
import dev.sopline.schemas.definition.ProcessFiles;
import dev.sopline.schemas.event.InstanceStateChanged;
import dev.sopline.schemas.event.StepReady;
import dev.sopline.schemas.event.StepResult;
import dev.sopline.schemas.event.StepStateChanged;
import dev.sopline.schemas.instance.InstanceState;
import dev.sopline.schemas.instance.StepError;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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

    private static final String WORKSPACE = "default";
    private static final String ID = "01JAAAAAAAAAAAAAAAAAAAAAAA";
    private static final Instant T0 = Instant.parse("2026-03-02T08:00:00Z");
    private static final ProcessDefinition DEFINITION = load("/processes/parallel.yaml");
    private static final DefinitionLookup DEFINITIONS = (workspace, process) -> Optional.of(ProcessVersions.single(workspace,
            DEFINITION.name(), DEFINITION.version(), new ProcessVersions.PublishedVersion(DEFINITION, "", T0)));
    private static final InstanceDecider DECIDER = new InstanceDecider(new CallbackIds("a test secret of thirty-two byte".getBytes(StandardCharsets.UTF_8)));
    private static final CommandHandlers HANDLERS = new CommandHandlers(DEFINITIONS, DECIDER);
    private static final TimerHandler TIMERS = new TimerHandler(DEFINITIONS, DECIDER);

    private static ProcessDefinition load(String resource) {
        try (InputStream in = ParallelBlockDecisionTest.class.getResourceAsStream(resource)) {
            return ((ProcessFiles.Loaded) ProcessFiles.load(in.readAllBytes())).file().process();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    // --- commands, as functions of the state they are decided on

    private static Decision decide(InstanceCommand command, Instance instance) {
        return HANDLERS.decide(command, Optional.ofNullable(instance), T0);
    }

    private static Function<Instance, Decision> submit(String stepId, Map<String, Object> outputs) {
        return instance -> decide(new SubmitStep("c", WORKSPACE, ID, "checks", stepId, outputs, null), instance);
    }

    private static Function<Instance, Decision> result(String stepId, int attempt, Map<String, Object> outputs) {
        return instance -> decide(new ReportStepResult(new StepResult(WORKSPACE, ID, stepId, attempt, outputs, null, null, "w", T0)), instance);
    }

    private static Function<Instance, Decision> error(String stepId, int attempt) {
        return instance -> decide(new ReportStepResult(new StepResult(WORKSPACE, ID, stepId, attempt, null,
                StepError.of("bureau_down", "down"), null, "w", T0)), instance);
    }

    private static Function<Instance, Decision> callback(Map<String, Object> payload) {
        return instance -> decide(new ResolveCallback("c", WORKSPACE, ID, instance.step("kyc").orElseThrow().callbackId(), payload), instance);
    }

    private static Function<Instance, Decision> cancel() {
        return instance -> decide(new CancelInstance("c", WORKSPACE, ID, "checks"), instance);
    }

    private static Function<Instance, Decision> retryDue(String stepId) {
        return instance -> TIMERS.fire(new Timer(T0, Timer.Kind.RETRY, WORKSPACE, ID, stepId, instance.step(stepId).orElseThrow().attempt()),
                Optional.of(instance), T0.plus(Duration.ofSeconds(2)));
    }

    private static Function<Instance, Decision> timeoutDue(String stepId) {
        return instance -> TIMERS.fire(new Timer(T0, Timer.Kind.STEP_TIMEOUT, WORKSPACE, ID, stepId, instance.step(stepId).orElseThrow().attempt()),
                Optional.of(instance), T0.plus(Duration.ofHours(2)));
    }

    // --- states, each reached by deciding commands from the start

    private static Instance started() {
        return decide(new StartInstance("c", WORKSPACE, ID, "checks", Map.of("applicant", "Ada"), null, StartInstance.API, "1.0"), null)
                .newState().orElseThrow();
    }

    private static Instance after(Instance instance, Function<Instance, Decision> command) {
        return command.apply(instance).newState().orElseThrow();
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
            assertThat(decision.events()).extracting(ParallelBlockDecisionTest::describe).as("events").containsExactlyElementsOf(events);
        }
        if (instanceState == InstanceState.FAILED) {
            assertThat(after.error().stepId()).isEqualTo("score");
        }
    }

    private static String describe(Object event) {
        if (event instanceof InstanceStateChanged changed) {
            return "instance %s->%s".formatted(changed.from().wireName(), changed.to().wireName());
        }
        if (event instanceof StepStateChanged changed) {
            return "%s %s->%s".formatted(changed.step().id(), changed.from().wireName(), changed.to().wireName());
        }
        return "ready " + ((StepReady) event).stepId();
    }
}
