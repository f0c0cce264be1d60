package dev.sopline.engine.handler;

import dev.sopline.engine.decision.Decision;
import dev.sopline.engine.decision.InstanceBudget;
import dev.sopline.engine.decision.InstanceDecider;
import dev.sopline.engine.decision.InstanceTooLarge;
import dev.sopline.engine.decision.JsonSize;
import dev.sopline.engine.state.Instance;
import dev.sopline.engine.state.Timer;
import dev.sopline.schemas.command.CancelInstance;
import dev.sopline.schemas.command.FireTimer;
import dev.sopline.schemas.command.InstanceCommand;
import dev.sopline.schemas.command.ReportStepResult;
import dev.sopline.schemas.command.ResolveCallback;
import dev.sopline.schemas.command.RetryInstance;
import dev.sopline.schemas.command.StartInstance;
import dev.sopline.schemas.command.SubmitStep;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/** The one table from instance command kind to its handler, and the timers and expiries decided per instance. */
public final class CommandHandlers {

    private final Map<Class<?>, CommandHandler<?>> handlers = new HashMap<>();
    private final TimerHandler timers;
    private final InstanceBudget budget;
    private final DefinitionLookup definitions;

    public CommandHandlers(DefinitionLookup definitions, InstanceDecider decider) {
        this.budget = decider.budget();
        this.definitions = definitions;
        this.timers = new TimerHandler(definitions, decider);
        register(StartInstance.class, new StartInstanceHandler(definitions, decider));
        register(SubmitStep.class, new SubmitStepHandler(definitions, decider));
        register(ReportStepResult.class, new ReportStepResultHandler(definitions, decider));
        register(CancelInstance.class, new CancelInstanceHandler(decider));
        register(RetryInstance.class, new RetryInstanceHandler(definitions, decider));
        register(ResolveCallback.class, new ResolveCallbackHandler(definitions, decider));
    }

    private <C extends InstanceCommand> void register(Class<C> kind, CommandHandler<C> handler) {
        handlers.put(kind, handler);
    }

    @SuppressWarnings("unchecked")
    public <C extends InstanceCommand> Decision decide(C command, Optional<Instance> instance, Instant now) {
        CommandHandler<C> handler = (CommandHandler<C>) handlers.get(command.getClass());
        if (handler == null) {
            throw new IllegalArgumentException("No handler for " + command.getClass().getSimpleName());
        }
        if (command instanceof StartInstance start && instance.isEmpty() && isRetired(start)) {
            return retiredProcess(start);
        }
        try {
            Decision decision = handler.decide(command, instance, now);
            decision.newState().ifPresent(budget::checkRecord);
            return decision;
        } catch (InstanceTooLarge tooLarge) {
            return handler.tooLarge(command, instance, tooLarge, now);
        }
    }

    /**
     * A start whose own inputs and trigger payload already pass the budget is refused before anything else, and
     * before it could be held waiting for its process version (the held copy is a record of its own).
     */
    public Optional<Decision> refuseOversizedStart(StartInstance start) {
        long size = JsonSize.of(start.inputs()) + JsonSize.of(start.triggerPayload());
        if (!budget.exceededBy(size)) {
            return Optional.empty();
        }
        return Optional.of(Rejections.payloadTooLarge(start.commandId(),
                "Expected an instance's data to stay within %d bytes, but the inputs and trigger payload are %d bytes"
                        .formatted(budget.maxBytes(), size)));
    }

    /** A step timer fired ({@link FireTimer} of a retry or a timeout), decided as of {@code now}, the command's time. */
    public Decision fire(FireTimer fire, Optional<Instance> instance, Instant now) {
        return timers.fire(Timer.firedBy(fire), instance, now);
    }

    /**
     * A new instance of a retired process (its workspace was deleted) is refused as if the process were gone, whatever
     * sent the start: an API call, a webhook trigger, or a schedule fire decided just before the retirement.
     */
    private boolean isRetired(StartInstance start) {
        return definitions.isRetired(start.workspace(), start.process());
    }

    private static Decision retiredProcess(StartInstance start) {
        return Rejections.notFound(start.commandId(),
                "Expected to start process '%s', but it is retired: its workspace was deleted".formatted(start.process()));
    }

    /**
     * A held start whose wait is over without its process version: answered 404, whatever may have arrived since
     * the engine wrote the expiry, so the answer is the log's. A start already decided (a repeat) gets its answer.
     */
    public Decision expireStart(StartInstance start, Optional<Instance> instance, Instant now) {
        return instance.isPresent() ? decide(start, instance, now) : StartInstanceHandler.notPublished(start);
    }
}
