package dev.sopline.engine.handler;

import dev.sopline.engine.decision.Decision;
import dev.sopline.engine.decision.InstanceDecider;
import dev.sopline.engine.state.Instance;
import dev.sopline.engine.state.StepRun;
import dev.sopline.schemas.command.CommandReply;
import dev.sopline.schemas.command.ErrorCodes;
import dev.sopline.schemas.command.StartInstance;
import dev.sopline.schemas.definition.ProcessDefinition;
import dev.sopline.schemas.definition.validation.InputValidator;
import dev.sopline.schemas.instance.InstanceState;
import dev.sopline.schemas.validation.Violation;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

final class StartInstanceHandler implements CommandHandler<StartInstance> {

    private final DefinitionLookup definitions;
    private final InstanceDecider decider;

    StartInstanceHandler(DefinitionLookup definitions, InstanceDecider decider) {
        this.definitions = definitions;
        this.decider = decider;
    }

    @Override
    public Decision decide(StartInstance command, Optional<Instance> existing, Instant now) {
        if (existing.isPresent()) {
            // The same start delivered again (the sender re-published after a time-out): answer as the first time.
            return Decision.answer(CommandReply.ok(command.commandId(), 201, startBody(existing.get())));
        }
        Optional<ProcessDefinition> found = pinnedVersion(command);
        if (found.isEmpty()) {
            return notPublished(command);
        }
        ProcessDefinition definition = found.get();
        Map<String, Object> inputs = command.inputs() == null ? Map.of() : command.inputs();
        List<Violation> violations = InputValidator.validate(definition.inputs(), inputs);
        if (!violations.isEmpty()) {
            return Rejections.invalid(command.commandId(), ErrorCodes.INVALID_INPUTS,
                    "Expected inputs that match process '%s' version %s".formatted(definition.name(), definition.version()), violations);
        }
        Instance created = new Instance(command.instanceId(), command.workspace(), definition.name(), definition.version(),
                InstanceState.RUNNING, new LinkedHashMap<>(inputs), Map.of(), null, command.triggerPayload(), now, null,
                definition.steps().stream().map(step -> StepRun.pending(step.id(), step.label(), step.type(), step.block(), step.branch())).toList(), 0L);
        return decider.begin(created, definition, now).decide(CommandReply.ok(command.commandId(), 201, startBody(created)));
    }

    /**
     * The version the sender saw published, exactly, when it names one: "the latest when decided" would depend on when
     * the registration reached this replica, and a replay after a crash could then start another version.
     */
    private Optional<ProcessDefinition> pinnedVersion(StartInstance command) {
        return command.seenVersion() != null
                ? definitions.version(command.workspace(), command.process(), command.seenVersion())
                : definitions.latest(command.workspace(), command.process());
    }

    /** The answer to a start whose process (or the version it names) is not published here. */
    static Decision notPublished(StartInstance command) {
        if (command.seenVersion() != null) {
            return Rejections.notFound(command.commandId(), "Expected to start version %s of process '%s', but no such version is published"
                    .formatted(command.seenVersion(), command.process()));
        }
        return Rejections.notFound(command.commandId(),
                "Expected to start process '%s', but no such process is published".formatted(command.process()));
    }

    /** The start response shows the instance as created, in {@code running} (interface section 3.1). */
    private static Map<String, Object> startBody(Instance instance) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("id", instance.id());
        body.put("process", instance.process());
        body.put("version", instance.version());
        body.put("state", InstanceState.RUNNING.wireName());
        body.put("started_at", instance.startedAt().toString());
        return body;
    }
}
