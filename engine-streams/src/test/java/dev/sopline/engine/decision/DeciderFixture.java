package dev.sopline.engine.decision;

import dev.sopline.engine.handler.CommandHandlers;
import dev.sopline.engine.handler.DefinitionLookup;
import dev.sopline.engine.handler.TimerHandler;
import dev.sopline.engine.state.Instance;
import dev.sopline.engine.api.view.ProcessVersions;
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
import dev.sopline.schemas.instance.StepError;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The command handlers and the decider over one process file, without Kafka: commands written as functions of the
 * state they are decided on, so that a test table reads "given this state, when this command".
 */
final class DeciderFixture {

    static final String WORKSPACE = "default";
    static final String ID = "01JAAAAAAAAAAAAAAAAAAAAAAA";
    static final Instant T0 = Instant.parse("2026-03-02T08:00:00Z");

    private final ProcessDefinition definition;
    private final CommandHandlers handlers;
    private final TimerHandler timers;

    DeciderFixture(String resource) {
        this.definition = load(resource);
        DefinitionLookup definitions = (workspace, process) -> Optional.of(ProcessVersions.single(workspace,
                definition.name(), definition.version(), new ProcessVersions.PublishedVersion(definition, "", T0)));
        InstanceDecider decider = new InstanceDecider(new CallbackIds("a test secret of thirty-two byte".getBytes(StandardCharsets.UTF_8)));
        this.handlers = new CommandHandlers(definitions, decider);
        this.timers = new TimerHandler(definitions, decider);
    }

    private static ProcessDefinition load(String resource) {
        try (InputStream in = DeciderFixture.class.getResourceAsStream(resource)) {
            return ((ProcessFiles.Loaded) ProcessFiles.load(in.readAllBytes())).file().process();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    Decision decide(InstanceCommand command, Instance instance) {
        return handlers.decide(command, Optional.ofNullable(instance), T0);
    }

    Instance start(Map<String, Object> inputs) {
        return decide(new StartInstance("c", WORKSPACE, ID, definition.name(), inputs, null, StartInstance.API, definition.version()), null)
                .newState().orElseThrow();
    }

    static Instance after(Instance instance, Function<Instance, Decision> command) {
        return command.apply(instance).newState().orElseThrow();
    }

    Function<Instance, Decision> submit(String stepId, Map<String, Object> outputs) {
        return instance -> decide(new SubmitStep("c", WORKSPACE, ID, definition.name(), stepId, outputs, null), instance);
    }

    Function<Instance, Decision> result(String stepId, int attempt, Map<String, Object> outputs) {
        return instance -> decide(new ReportStepResult(new StepResult(WORKSPACE, ID, stepId, attempt, outputs, null, null, "w", T0)), instance);
    }

    Function<Instance, Decision> error(String stepId, int attempt) {
        return instance -> decide(new ReportStepResult(new StepResult(WORKSPACE, ID, stepId, attempt, null,
                StepError.of("bureau_down", "down"), null, "w", T0)), instance);
    }

    Function<Instance, Decision> callback(String stepId, Map<String, Object> payload) {
        return instance -> decide(new ResolveCallback("c", WORKSPACE, ID, instance.step(stepId).orElseThrow().callbackId(), payload), instance);
    }

    Function<Instance, Decision> cancel() {
        return instance -> decide(new CancelInstance("c", WORKSPACE, ID, definition.name()), instance);
    }

    Function<Instance, Decision> retryDue(String stepId) {
        return instance -> timers.fire(new Timer(T0, Timer.Kind.RETRY, WORKSPACE, ID, stepId, instance.step(stepId).orElseThrow().attempt()),
                Optional.of(instance), T0.plus(Duration.ofMinutes(1)));
    }

    Function<Instance, Decision> timeoutDue(String stepId) {
        return instance -> timers.fire(new Timer(T0, Timer.Kind.STEP_TIMEOUT, WORKSPACE, ID, stepId, instance.step(stepId).orElseThrow().attempt()),
                Optional.of(instance), T0.plus(Duration.ofHours(2)));
    }

    /** An event as a table cell: {@code instance running->waiting}, {@code score pending->active}, {@code ready score}. */
    static String describe(Object event) {
        if (event instanceof InstanceStateChanged changed) {
            return "instance %s->%s".formatted(changed.from().wireName(), changed.to().wireName());
        }
        if (event instanceof StepStateChanged changed) {
            String escalated = changed.from() == changed.to() ? " (escalated)" : "";
            return "%s %s->%s%s".formatted(changed.step().id(), changed.from().wireName(), changed.to().wireName(), escalated);
        }
        return "ready " + ((StepReady) event).stepId();
    }
}
