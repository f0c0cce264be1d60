package dev.sopline.engine.processor;

import dev.sopline.engine.decision.Decision;
import dev.sopline.engine.decision.IdGenerator;
import dev.sopline.engine.decision.InstanceDecider;
import dev.sopline.engine.decision.Transition;
import dev.sopline.engine.handler.CommandHandlers;
import dev.sopline.engine.handler.DefinitionLookup;
import dev.sopline.engine.handler.ProcessDecision;
import dev.sopline.engine.handler.ProcessHandler;
import dev.sopline.engine.handler.TimerHandler;
import dev.sopline.engine.state.IdempotencyRecord;
import dev.sopline.engine.state.Instance;
import dev.sopline.engine.state.InstanceStore;
import dev.sopline.engine.state.PendingStepStore;
import dev.sopline.engine.state.ProcessVersions;
import dev.sopline.engine.state.Timer;
import dev.sopline.engine.state.WaitingStart;
import dev.sopline.engine.topology.EngineTopology;
import dev.sopline.schemas.command.Command;
import dev.sopline.schemas.command.CommandReply;
import dev.sopline.schemas.command.ErrorCodes;
import dev.sopline.schemas.command.IdempotencyKey;
import dev.sopline.schemas.command.IdempotentCommand;
import dev.sopline.schemas.command.InstanceCommand;
import dev.sopline.schemas.command.InstanceKeys;
import dev.sopline.schemas.command.RegisterProcess;
import dev.sopline.schemas.event.InstanceStateChanged;
import dev.sopline.schemas.event.StateChangeEvents;
import dev.sopline.schemas.event.StepReady;
import dev.sopline.schemas.event.StepStateChanged;
import dev.sopline.schemas.instance.CallbackOwner;
import dev.sopline.schemas.instance.StepError;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine's one processor: load the state a command names, let its handler decide, write the state once,
 * publish the events, answer the sender. Timers are fired by wall-clock punctuation from the same stores, on the
 * same task, so a timer and a command for one instance never race. The same punctuation tries again the starts that
 * wait for their process version to reach this replica ({@link WaitingStarts}).
 */
public final class CommandProcessor implements Processor<String, Command, String, Object> {

    private static final Logger LOG = LoggerFactory.getLogger(CommandProcessor.class);
    private static final String ENGINE_ERROR = "engine_error";

    private final Duration timerInterval;
    private final InstanceDecider decider;
    private final ProcessHandler processHandler;

    private ProcessorContext<String, Object> context;
    private DefinitionLookup definitions;
    private CommandHandlers handlers;
    private TimerHandler timerHandler;
    private InstanceStore instances;
    private KeyValueStore<String, ProcessVersions> processes;
    private KeyValueStore<String, Timer> timers;
    private PendingStepStore pending;
    private KeyValueStore<String, IdempotencyRecord> idempotency;
    private WaitingStarts waitingStarts;

    public CommandProcessor(Duration timerInterval, IdGenerator ids) {
        this.timerInterval = timerInterval;
        this.decider = new InstanceDecider(ids);
        this.processHandler = new ProcessHandler(ids);
    }

    @Override
    public void init(ProcessorContext<String, Object> context) {
        this.context = context;
        KeyValueStore<String, ProcessVersions> published = context.getStateStore(EngineTopology.DEFINITIONS_STORE);
        this.definitions = new CachedDefinitions(
                (workspace, process) -> Optional.ofNullable(published.get(InstanceKeys.processKey(workspace, process))));
        this.handlers = new CommandHandlers(definitions, decider);
        this.timerHandler = new TimerHandler(definitions, decider);
        this.instances = new InstanceStore(context.getStateStore(EngineTopology.INSTANCES_STORE));
        this.processes = context.getStateStore(EngineTopology.PROCESSES_STORE);
        this.timers = context.getStateStore(EngineTopology.TIMERS_STORE);
        this.pending = new PendingStepStore(context.getStateStore(EngineTopology.PENDING_STORE));
        this.idempotency = context.getStateStore(EngineTopology.IDEMPOTENCY_STORE);
        this.waitingStarts = new WaitingStarts(context.getStateStore(EngineTopology.WAITING_STARTS_STORE), definitions);
        rebuildPendingIndex(context.getStateStore(EngineTopology.INSTANCES_STORE));
        context.schedule(timerInterval, PunctuationType.WALL_CLOCK_TIME, this::punctuate);
    }

    /** Runs when the task starts, after its stores are restored: the index holds the ready steps of its instances. */
    private void rebuildPendingIndex(KeyValueStore<String, Instance> instanceStore) {
        try (KeyValueIterator<String, Instance> all = instanceStore.all()) {
            all.forEachRemaining(entry -> {
                Instance instance = entry.value;
                if (!instance.isTerminal()) {
                    definitions.version(instance.workspace(), instance.process(), instance.version())
                            .ifPresent(definition -> pending.update(null, instance, definition));
                }
            });
        }
    }

    @Override
    public void process(Record<String, Command> record) {
        Command command = record.value();
        if (command == null) {
            return;
        }
        Instant now = Instant.ofEpochMilli(record.timestamp());
        handle(command, now, now);
    }

    /** Decides a command now, unless it is a start that must first wait for its process version to arrive. */
    private void handle(Command command, Instant receivedAt, Instant now) {
        if (waitingStarts.holdIfEarly(command, receivedAt, now)) {
            return;
        }
        if (command instanceof RegisterProcess register) {
            String key = InstanceKeys.processKey(register.workspace(), register.file().process().name());
            apply(processHandler.register(register, Optional.ofNullable(processes.get(key)), now), key, now);
        } else if (command instanceof IdempotentCommand idempotent) {
            processIdempotent(idempotent, now);
        } else if (command instanceof InstanceCommand instanceCommand) {
            Decided decided = decide(instanceCommand, now);
            apply(decided.decision(), decided.before(), instanceCommand.instanceId(), now);
        }
    }

    /** One read of the instance, then the handler's decision; nothing is written yet. */
    private Decided decide(InstanceCommand command, Instant now) {
        Optional<Instance> current = instances.find(command.workspace(), command.instanceId());
        try {
            return new Decided(current.orElse(null), handlers.decide(command, current, now));
        } catch (KafkaException e) {
            throw e;
        } catch (RuntimeException e) {
            return new Decided(current.orElse(null), failOnEngineError(command, current, e, now));
        }
    }

    private record Decided(Instance before, Decision decision) {}

    /** A repeat gets the first answer; the same key with another request is refused; a new key is decided and kept. */
    private void processIdempotent(IdempotentCommand idempotent, Instant now) {
        IdempotencyKey key = idempotent.idempotency();
        IdempotencyRecord seen = idempotency.get(key.scope());
        if (seen != null && now.isBefore(seen.expiresAt())) {
            forwardReply(seen.requestHash().equals(key.requestHash())
                    ? seen.reply().answering(idempotent.commandId())
                    : CommandReply.rejected(idempotent.commandId(), 422, ErrorCodes.IDEMPOTENCY_KEY_REUSED,
                            "Expected a new Idempotency-Key for a different request, but this key was used for another one"), now);
            return;
        }
        Decided decided = decide(idempotent.command(), now);
        decided.decision().reply().filter(reply -> reply.status() < 500).ifPresent(reply -> {
            Instant expiresAt = now.plus(IdempotencyRecord.RETENTION);
            idempotency.put(key.scope(), new IdempotencyRecord(key.requestHash(), reply, expiresAt));
            timers.put(new Timer(expiresAt, Timer.Kind.FORGET_IDEMPOTENCY, idempotent.workspace(), key.scope(), null, 0).storeKey(),
                    new Timer(expiresAt, Timer.Kind.FORGET_IDEMPOTENCY, idempotent.workspace(), key.scope(), null, 0));
        });
        apply(decided.decision(), decided.before(), idempotent.instanceId(), now);
    }

    private void punctuate(long wallClockMillis) {
        Instant now = Instant.ofEpochMilli(wallClockMillis);
        fireDueTimers(now);
        for (WaitingStart waiting : waitingStarts.takeAll()) {
            handle(waiting.command(), waiting.receivedAt(), now);
        }
    }

    private void fireDueTimers(Instant now) {
        List<KeyValue<String, Timer>> due = new ArrayList<>();
        try (KeyValueIterator<String, Timer> iterator = timers.range(null, Timer.upperBoundKey(now))) {
            iterator.forEachRemaining(due::add);
        }
        for (KeyValue<String, Timer> entry : due) {
            timers.delete(entry.key);
            Timer timer = entry.value;
            if (timer.kind() == Timer.Kind.FORGET_IDEMPOTENCY) {
                idempotency.delete(timer.target());
            } else if (timer.kind() == Timer.Kind.SCHEDULE) {
                String key = InstanceKeys.processKey(timer.workspace(), timer.target());
                apply(processHandler.fire(timer, Optional.ofNullable(processes.get(key)), now), key, now);
            } else {
                Optional<Instance> current = instances.find(timer.workspace(), timer.target());
                Decision decision;
                try {
                    decision = timerHandler.fire(timer, current, now);
                } catch (KafkaException e) {
                    throw e;
                } catch (RuntimeException e) {
                    LOG.error("Timer {} of instance {} failed", timer.kind(), timer.target(), e);
                    decision = Decision.ignore();
                }
                apply(decision, current.orElse(null), timer.target(), now);
            }
        }
    }

    private void apply(Decision decision, Instance before, String recordKey, Instant now) {
        decision.newState().ifPresent(after -> {
            instances.put(after);
            definitions.version(after.workspace(), after.process(), after.version())
                    .ifPresent(definition -> pending.update(before, after, definition));
        });
        decision.timers().forEach(timer -> timers.put(timer.storeKey(), timer));
        for (Object event : decision.events()) {
            publish(recordKey, event, now);
        }
        decision.followUps().forEach(command -> forward(EngineTopology.COMMANDS_SINK, command.key(), command, now));
        decision.reply().ifPresent(reply -> forwardReply(reply, now));
    }

    private void apply(ProcessDecision decision, String processKey, Instant now) {
        decision.newState().ifPresent(versions -> {
            processes.put(processKey, versions);
            forward(EngineTopology.DEFINITIONS_SINK, processKey, versions, now);
        });
        decision.timers().forEach(timer -> timers.put(timer.storeKey(), timer));
        decision.followUps().forEach(command -> forward(EngineTopology.COMMANDS_SINK, command.key(), command, now));
        decision.reply().ifPresent(reply -> forwardReply(reply, now));
    }

    private void publish(String instanceId, Object event, Instant now) {
        if (event instanceof StepReady ready) {
            forward(EngineTopology.stepReadySink(ready.type()), instanceId, ready, now);
            if (ready.callbackId() != null) {
                forward(EngineTopology.CALLBACKS_SINK, ready.callbackId(),
                        new CallbackOwner(ready.workspace(), ready.instanceId(), ready.stepId()), now);
            }
        } else if (event instanceof InstanceStateChanged changed) {
            forward(EngineTopology.EVENTS_SINK, instanceId, StateChangeEvents.instanceChanged(changed, now), now);
        } else if (event instanceof StepStateChanged changed) {
            forward(EngineTopology.EVENTS_SINK, instanceId, StateChangeEvents.stepChanged(changed, now), now);
        }
    }

    private void forwardReply(CommandReply reply, Instant now) {
        if (reply.commandId() != null) {
            forward(EngineTopology.REPLIES_SINK, reply.commandId(), reply, now);
        }
    }

    private void forward(String sink, String key, Object value, Instant now) {
        context.forward(new Record<>(key, value, now.toEpochMilli()), sink);
    }

    /**
     * A defect met while deciding for one instance: nothing has been written, so the instance is marked failed with
     * the reason and the engine carries on with the next command.
     */
    private Decision failOnEngineError(InstanceCommand command, Optional<Instance> current, RuntimeException error, Instant now) {
        LOG.error("Command {} for instance {} failed; marking the instance failed", command.commandId(), command.instanceId(), error);
        CommandReply reply = CommandReply.rejected(command.commandId(), 500, ENGINE_ERROR,
                "Expected to process the command, but the engine met an internal error");
        if (current.isEmpty() || current.get().isTerminal()) {
            return Decision.reject(reply);
        }
        Transition transition = new Transition(current.get());
        decider.failInstance(transition, StepError.of(ENGINE_ERROR, "The engine met an internal error: " + error.getClass().getSimpleName()), now);
        return transition.decide(reply);
    }
}
