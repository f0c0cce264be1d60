package dev.sopline.engine.processor;

import dev.sopline.engine.api.DecisionListener;
import dev.sopline.engine.decision.CallbackIds;
import dev.sopline.engine.decision.Decision;
import dev.sopline.engine.decision.InstanceDecider;
import dev.sopline.engine.decision.Transition;
import dev.sopline.engine.handler.CommandHandlers;
import dev.sopline.engine.handler.DefinitionLookup;
import dev.sopline.engine.handler.ProcessDecision;
import dev.sopline.engine.handler.ProcessHandler;
import dev.sopline.engine.state.AttemptTimers;
import dev.sopline.engine.state.FinishedInstance;
import dev.sopline.engine.state.FinishedInstances;
import dev.sopline.engine.state.Instance;
import dev.sopline.engine.state.InstanceIndexes;
import dev.sopline.engine.state.InstanceStore;
import dev.sopline.engine.state.MetricCounters;
import dev.sopline.engine.state.PendingStepStore;
import dev.sopline.engine.state.ProcessVersionStore;
import dev.sopline.engine.api.view.ProcessVersions;
import dev.sopline.engine.state.Timer;
import dev.sopline.engine.state.WindowBuckets;
import dev.sopline.engine.topology.EngineConfig;
import dev.sopline.engine.topology.EngineTopology;
import dev.sopline.schemas.command.Command;
import dev.sopline.schemas.command.CommandReply;
import dev.sopline.schemas.command.ErrorCodes;
import dev.sopline.schemas.command.ExpireInstance;
import dev.sopline.schemas.command.FireTimer;
import dev.sopline.schemas.command.IdempotentCommand;
import dev.sopline.schemas.command.InstanceCommand;
import dev.sopline.schemas.command.RegisterProcess;
import dev.sopline.schemas.command.ReleaseStart;
import dev.sopline.schemas.command.RetireProcess;
import dev.sopline.schemas.command.ReportStepResult;
import dev.sopline.schemas.command.StartInstance;
import dev.sopline.schemas.definition.ProcessDefinition;
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
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine's one processor: load the state a command names, let its handler decide, write the state once,
 * publish the events, answer the sender.
 *
 * <p>It reads one input, the command topic, so the order of that log is the only order there is: a replay after a
 * crash (everything written since the last commit is aborted) reads the same commands in the same order and decides
 * the same things, which is what makes handing steps and replies out before the commit safe. Worker results reach it
 * through the same log ({@code ResultRelay}). Wall-clock punctuation decides nothing: it only writes commands to the
 * log, a {@link FireTimer} for each due timer and a {@link ReleaseStart} for each held start that may go on
 * ({@link WaitingStarts}), and each is decided when read, with its record's timestamp as "now". A finished instance
 * whose retention has passed is removed the same way, by an {@link ExpireInstance} command.
 *
 * <p>Those commands are written outside the engine's transaction ({@link CommandLog}), so they may be written twice.
 * What each acts on stays in its store until the command is read, and only the first command read finds it there.
 */
public final class CommandProcessor implements Processor<String, Command, String, Object> {

    private static final Logger LOG = LoggerFactory.getLogger(CommandProcessor.class);
    /** Claims of the commands punctuation writes ({@link OwnCommands}), one namespace per store they name. */
    private static final String TIMER_CLAIM = "timer|";
    private static final String EXPIRY_CLAIM = "expiry|";
    private static final String RELEASE_CLAIM = "release|";
    /** Punctuation writes at most this many punctuations' worth of commands ahead of what the engine has read back. */
    private static final int UNREAD_PUNCTUATIONS = 4;

    private final Duration timerInterval;
    private final int firesPerPunctuation;
    private final InstanceDecider decider;
    private final CallbackIds callbackIds;
    private final CommandMetrics metrics;
    private final Duration retention;
    private final DecisionListener listener;
    private final CommandLog commandLog;
    private final ProcessHandler processHandler;

    private ProcessorContext<String, Object> context;
    private DefinitionLookup definitions;
    private CommandHandlers handlers;
    private InstanceStore instances;
    private KeyValueStore<String, ProcessVersions> processes;
    private ProcessVersionStore processVersions;
    private KeyValueStore<String, Timer> timers;
    private InstanceIndexes indexes;
    private InstanceExpiry expiry;
    private KeyValueStore<String, Instance> instanceStore;
    private boolean indexed;
    private Integer replyStatus;
    private IdempotentDecisions idempotency;
    private WaitingStarts waitingStarts;
    private dev.sopline.engine.state.HistoryStore history;
    private OwnCommands ownCommands;
    /** The command being decided, whose sender the history names. */
    private Command deciding;

    public CommandProcessor(EngineConfig config) {
        this.timerInterval = config.timerInterval();
        this.firesPerPunctuation = config.firesPerPunctuation();
        this.decider = new InstanceDecider(config.callbackIds(), config.instanceBudget());
        this.callbackIds = config.callbackIds();
        this.metrics = config.metrics();
        this.retention = config.retention();
        this.listener = config.listener();
        this.commandLog = config.commandLog();
        this.processHandler = new ProcessHandler(config.instanceBudget());
    }

    @Override
    public void init(ProcessorContext<String, Object> context) {
        this.context = context;
        KeyValueStore<String, ProcessVersions> published = context.getStateStore(EngineTopology.DEFINITIONS_STORE);
        ProcessVersionStore publishedVersions = new ProcessVersionStore(published);
        this.definitions = new CachedDefinitions(new StoredDefinitions(publishedVersions), publishedVersions::version);
        this.handlers = new CommandHandlers(definitions, decider);
        this.instances = new InstanceStore(context.getStateStore(EngineTopology.INSTANCES_STORE));
        this.processes = context.getStateStore(EngineTopology.PROCESSES_STORE);
        this.processVersions = new ProcessVersionStore(processes);
        this.timers = context.getStateStore(EngineTopology.TIMERS_STORE);
        this.instanceStore = context.getStateStore(EngineTopology.INSTANCES_STORE);
        this.indexes = new InstanceIndexes(new PendingStepStore(context.getStateStore(EngineTopology.PENDING_STORE)),
                context.getStateStore(EngineTopology.INSTANCE_INDEX_STORE),
                new FinishedInstances(context.getStateStore(EngineTopology.FINISHED_STORE)),
                new MetricCounters(context.getStateStore(EngineTopology.COUNTERS_STORE)),
                new WindowBuckets(context.getStateStore(EngineTopology.WINDOW_STORE), timer -> timers.put(timer.storeKey(), timer)),
                retention);
        this.history = new dev.sopline.engine.state.HistoryStore(context.getStateStore(EngineTopology.HISTORY_STORE));
        this.expiry = new InstanceExpiry(instances, indexes, history, callbackIds, retention);
        this.idempotency = new IdempotentDecisions(IdempotentDecisions.Records.in(context.getStateStore(EngineTopology.IDEMPOTENCY_STORE)),
                timer -> timers.put(timer.storeKey(), timer));
        this.waitingStarts = new WaitingStarts(context.getStateStore(EngineTopology.WAITING_STARTS_STORE), definitions);
        this.ownCommands = new OwnCommands(commandLog != null ? commandLog
                : (command, at, failed) -> forward(EngineTopology.COMMANDS_SINK, command.key(), command, at),
                UNREAD_PUNCTUATIONS * firesPerPunctuation);
        this.indexed = false;
        context.schedule(timerInterval, PunctuationType.WALL_CLOCK_TIME, this::punctuate);
    }

    /**
     * Indexes instances stored by an engine of the previous format, once (see {@link InstanceIndexes#indexOnce}); done
     * with the first record or punctuation rather than in {@code init}, where logged stores cannot be written yet.
     */
    private void ensureIndexed() {
        if (!indexed) {
            indexes.indexOnce(instanceStore, this::definitionOf);
            indexed = true;
        }
    }

    private Optional<ProcessDefinition> definitionOf(Instance instance) {
        return definitions.version(instance.workspace(), instance.process(), instance.version());
    }

    /**
     * Decides one command. A command the engine cannot apply (a defect met while deciding or writing it, or state it
     * cannot read) is answered 500 {@code engine_error}, logged with where it is in the log, and skipped: one record
     * must never stop the engine. Kafka's own failures (a fenced producer, a migrated task) still go up to Kafka
     * Streams, which knows how to recover from them.
     */
    @Override
    public void process(Record<String, Command> record) {
        Command command = record.value();
        if (command == null) {
            return;
        }
        if (command instanceof ReportStepResult report && report.result().bounded() != report.result()) {
            // Its sender's texts, kept outside the instance's budget, are bounded before anything keeps them.
            command = new ReportStepResult(report.result().bounded(), report.tokenChecked());
        }
        Instant now = Instant.ofEpochMilli(record.timestamp());
        ensureIndexed();
        long started = System.nanoTime();
        replyStatus = null;
        deciding = command;
        try {
            dispatch(command, now);
        } catch (SerializationException e) {
            skipOnEngineError(command, e, now);
        } catch (KafkaException e) {
            throw e;
        } catch (RuntimeException e) {
            skipOnEngineError(command, e, now);
        }
        metrics.decided(CommandMetrics.typeName(describe(command)), CommandMetrics.outcome(replyStatus), System.nanoTime() - started);
    }

    private void dispatch(Command command, Instant now) {
        // Punctuation finds what is due by this host's clock, and the broker stamps the command by its own: a broker
        // whose clock runs behind would have the command decided before the time it was due, the timer put back
        // unchanged and fired again at every punctuation until the clocks met. Decided no earlier than it was due
        // (both times are in the command), it does what it was due to do, once.
        if (command instanceof FireTimer fire) {
            fireTimer(fire, notBefore(now, fire.dueAt()));
        } else if (command instanceof ExpireInstance expire) {
            expireInstance(expire, notBefore(now, expire.expiresAt()));
        } else if (command instanceof ReleaseStart release) {
            if (!letGo(release)) {
                return;
            }
            if (release.expired()) {
                decideNow(release.start(), now, (start, instance) -> handlers.expireStart((StartInstance) start, instance, now));
            } else {
                handle(release.start(), release.receivedAt(), now);
            }
        } else {
            handle(command, now, now);
        }
    }

    private static Instant notBefore(Instant now, Instant due) {
        return due != null && now.isBefore(due) ? due : now;
    }

    /** Decides a command now, unless it is a start that must first wait for its process version to arrive. */
    private void handle(Command command, Instant receivedAt, Instant now) {
        Optional<StartInstance> start = startIn(command);
        Optional<Decision> oversized = start.flatMap(handlers::refuseOversizedStart);
        if (oversized.isPresent()) {
            apply(oversized.get(), null, start.get().instanceId(), now);
            return;
        }
        if (waitingStarts.holdIfEarly(command, receivedAt)) {
            return;
        }
        if (command instanceof RegisterProcess register) {
            apply(processHandler.register(register, processVersions.find(register.workspace(), register.file().process().name()), now), now);
        } else if (command instanceof RetireProcess retire) {
            apply(processHandler.retire(retire, processVersions.find(retire.workspace(), retire.process()), now), now);
        } else if (command instanceof InstanceCommand instanceCommand) {
            decideNow(instanceCommand, now, (inner, instance) -> handlers.decide(inner, instance, now));
        }
    }

    private static Optional<StartInstance> startIn(Command command) {
        Command inner = command instanceof IdempotentCommand idempotent ? idempotent.command() : command;
        return inner instanceof StartInstance start ? Optional.of(start) : Optional.empty();
    }

    /** How an instance command is decided: by its handler, or, for a held start whose wait is over, by its expiry. */
    @FunctionalInterface
    private interface Deciding {
        Decision decide(InstanceCommand command, Optional<Instance> instance);
    }

    private void decideNow(InstanceCommand command, Instant now, Deciding deciding) {
        Decided decided = command instanceof IdempotentCommand idempotent
                ? idempotency.decide(idempotent, now, inner -> decide(inner, now, deciding))
                : decide(command, now, deciding);
        apply(decided.decision(), decided.before(), command.instanceId(), now);
    }

    /** One read of the instance, then the decision; nothing is written yet. */
    private Decided decide(InstanceCommand command, Instant now, Deciding deciding) {
        Optional<Instance> current = instances.find(command.workspace(), command.instanceId());
        try {
            return new Decided(current.orElse(null), deciding.decide(command, current));
        } catch (KafkaException e) {
            throw e;
        } catch (RuntimeException e) {
            return new Decided(current.orElse(null), failOnEngineError(command, current, e, now));
        }
    }

    /** A held start's release is read back: the first one read lets it go, a repeat finds it gone. */
    private boolean letGo(ReleaseStart release) {
        if (!release.startKept()) {
            return true;
        }
        ownCommands.read(RELEASE_CLAIM + WaitingStarts.keyOf(release));
        return waitingStarts.letGo(release);
    }

    /** A timer's command is read back: decided now, as of the time it fired, unless a copy read before took the timer. */
    private void fireTimer(FireTimer fire, Instant now) {
        if (fire.timerKept()) {
            String key = Timer.firedBy(fire).storeKey();
            ownCommands.read(TIMER_CLAIM + key);
            if (timers.get(key) == null) {
                return;
            }
            timers.delete(key);
        }
        if (fire.kind() == FireTimer.Kind.SCHEDULE) {
            apply(processHandler.fire(Timer.firedBy(fire), processVersions.find(fire.workspace(), fire.target()), now), now);
            return;
        }
        Optional<Instance> current = instances.find(fire.workspace(), fire.target());
        Decision decision;
        try {
            decision = handlers.fire(fire, current, now);
        } catch (KafkaException e) {
            throw e;
        } catch (RuntimeException e) {
            LOG.error("Timer {} of instance {} failed", fire.kind(), fire.target(), e);
            decision = Decision.ignore();
        }
        apply(decision, current.orElse(null), fire.target(), now);
    }

    /** A finished instance's retention has passed: removed with its index entries and its callback ids' owners. */
    private void expireInstance(ExpireInstance expire, Instant now) {
        FinishedInstance entry = new FinishedInstance(expire.workspace(), expire.instanceId(), expire.expiresAt());
        ownCommands.read(EXPIRY_CLAIM + FinishedInstances.key(entry));
        indexes.forgetFinished(entry);
        for (String callbackId : expiry.expire(expire, now)) {
            forward(EngineTopology.CALLBACKS_SINK, callbackId, null, now);
        }
    }

    /**
     * Writes commands for what is due and not written yet; decides nothing (see the class comment). Each kind writes at
     * most {@code firesPerPunctuation} per punctuation, so a backlog after downtime is worked off over several.
     */
    private void punctuate(long wallClockMillis) {
        Instant now = Instant.ofEpochMilli(wallClockMillis);
        ensureIndexed();
        if (!fireDueTimers(now)) {
            return;
        }
        for (FinishedInstance expired : indexes.expired(now, firesPerPunctuation, key -> ownCommands.isInFlight(EXPIRY_CLAIM + key))) {
            if (!ownCommands.write(EXPIRY_CLAIM + FinishedInstances.key(expired),
                    new ExpireInstance(expired.workspace(), expired.instanceId(), expired.expiresAt()), now)) {
                return;
            }
        }
        for (KeyValue<String, ReleaseStart> release : waitingStarts.due(now, firesPerPunctuation,
                key -> ownCommands.isInFlight(RELEASE_CLAIM + key))) {
            if (!ownCommands.write(RELEASE_CLAIM + release.key, release.value, now)) {
                return;
            }
        }
    }

    /**
     * Writes the commands of up to {@code firesPerPunctuation} due timers; the rest fire at the next punctuations. A
     * timer stays stored until its command is read. An idempotency key's expiry or an old window bucket only cleans up,
     * at once: decisions already ignore what they remove.
     *
     * @return false if the command log refused a command, so the punctuation should write no more
     */
    private boolean fireDueTimers(Instant now) {
        List<KeyValue<String, Timer>> due = new ArrayList<>();
        try (KeyValueIterator<String, Timer> iterator = timers.range(null, Timer.upperBoundKey(now))) {
            while (iterator.hasNext() && due.size() < firesPerPunctuation) {
                KeyValue<String, Timer> entry = iterator.next();
                if (!ownCommands.isInFlight(TIMER_CLAIM + entry.key)) {
                    due.add(entry);
                }
            }
        }
        for (KeyValue<String, Timer> entry : due) {
            Timer timer = entry.value;
            if (timer.kind() == Timer.Kind.FORGET_IDEMPOTENCY) {
                timers.delete(entry.key);
                idempotency.forget(timer);
            } else if (timer.kind() == Timer.Kind.FORGET_WINDOW_BUCKET) {
                timers.delete(entry.key);
                indexes.forgetWindowBucket(timer.target());
            } else if (!ownCommands.write(TIMER_CLAIM + entry.key, timer.fireCommand(), now)) {
                return false;
            }
        }
        return true;
    }

    private void apply(Decision decision, Instance before, String recordKey, Instant now) {
        List<Object> events = decision.events();
        // Step handoffs go to the producer first: with one request in flight, the first record of a decision leaves at
        // once and the rest wait for it, and a worker waits for its step while nobody waits for a changelog record.
        // Nothing reads the stores on the way to a step topic, and all of it belongs to one transaction.
        boolean instanceChanged = false;
        for (Object event : events) {
            if (event instanceof StepReady ready) {
                handOff(recordKey, ready, now);
            }
            instanceChanged |= event instanceof InstanceStateChanged;
        }
        decision.newState().ifPresent(after -> {
            // The instance first: its bytes, measured by the budget's check, are the thread's last measured, and the
            // history record's measure would take their place.
            instances.put(after);
            history.append(after.workspace(), after.id(), dev.sopline.engine.decision.HistoryEntries.of(deciding, before, decision, now));
            indexes.update(before, after, definitionOf(after).orElse(null), now);
            removeTimersOfEndedAttempts(before, after);
        });
        decision.timers().forEach(timer -> timers.put(timer.storeKey(), timer));
        // The reply goes out once the state it announces is in the stores (a read right after it finds the instance),
        // and before the events are built, so the waiting client does not wait for their envelopes. All of them belong
        // to one transaction, so the order between topics changes nothing after a crash.
        decision.reply().ifPresent(reply -> forwardReply(reply, now));
        // Likewise a read waiting for the instance to change reads it again now, not after the envelopes.
        if (instanceChanged) {
            tellInstanceChanged(recordKey);
        }
        for (int index = 0; index < events.size(); index++) {
            Object event = events.get(index);
            if (!(event instanceof StepReady)) {
                publish(recordKey, event, index, now);
            }
        }
        decision.followUps().forEach(command -> forward(EngineTopology.COMMANDS_SINK, command.key(), command, now));
    }

    /**
     * Removes the timers of the attempts the decision ended ({@link AttemptTimers}); a timer that fired for this
     * decision was taken out when its command was read, and is not removed twice (each removal is a changelog record).
     */
    private void removeTimersOfEndedAttempts(Instance before, Instance after) {
        for (String key : AttemptTimers.endedBetween(before, after)) {
            if (timers.get(key) != null) {
                timers.delete(key);
            }
        }
    }

    private void apply(ProcessDecision decision, Instant now) {
        decision.newState().ifPresent(published -> {
            for (KeyValue<String, ProcessVersions> write : processVersions.writesFor(published)) {
                if (write.value == null) {
                    processes.delete(write.key);
                } else {
                    processes.put(write.key, write.value);
                }
                forward(EngineTopology.DEFINITIONS_SINK, write.key, write.value, now);
                if (write.value != null) {
                    // Creates the topics of the version's teams before its first step (AutomatedStepsRouter).
                    forward(EngineTopology.AUTOMATED_STEPS_ROUTER, write.key, write.value, now);
                }
            }
        });
        decision.timers().forEach(timer -> timers.put(timer.storeKey(), timer));
        decision.followUps().forEach(command -> forward(EngineTopology.COMMANDS_SINK, command.key(), command, now));
        decision.reply().ifPresent(reply -> forwardReply(reply, now));
    }

    private void handOff(String instanceId, StepReady ready, Instant now) {
        forward(EngineTopology.stepReadySink(ready.type()), instanceId, ready, now);
        if (ready.callbackId() != null) {
            forward(EngineTopology.CALLBACKS_SINK, ready.callbackId(),
                    new CallbackOwner(ready.workspace(), ready.instanceId(), ready.stepId()), now);
        }
    }

    private void publish(String instanceId, Object event, int index, Instant now) {
        if (event instanceof InstanceStateChanged changed) {
            forward(EngineTopology.EVENTS_PUBLISHER, instanceId, StateChangeEvents.instanceChanged(changed, now, eventId(instanceId, index, now)), now);
        } else if (event instanceof StepStateChanged changed) {
            forward(EngineTopology.EVENTS_PUBLISHER, instanceId, StateChangeEvents.stepChanged(changed, now, eventId(instanceId, index, now)), now);
        } else if (event instanceof dev.sopline.schemas.event.InstanceRetried retried) {
            forward(EngineTopology.EVENTS_PUBLISHER, instanceId, StateChangeEvents.instanceRetried(retried, now, eventId(instanceId, index, now)), now);
        }
    }

    /** Events are only published while a command record is processed, never from punctuation. */
    private String eventId(String instanceId, int index, Instant now) {
        RecordMetadata command = context.recordMetadata()
                .orElseThrow(() -> new IllegalStateException("Expected events to be decided while a command is processed"));
        return EventIds.of(instanceId, command.partition(), command.offset(), index, now);
    }

    private void forwardReply(CommandReply reply, Instant now) {
        replyStatus = reply.status();
        if (reply.commandId() == null && reply.status() >= 400 && deciding instanceof StartInstance start) {
            // A start the engine wrote itself (a schedule's fire) has no sender to read why it was refused.
            LOG.warn("A {} start of process '{}' in workspace '{}' was refused: {} {}: {}", start.origin(), start.process(), start.workspace(),
                    reply.status(), reply.error(), reply.message());
        }
        if (reply.commandId() != null) {
            forward(EngineTopology.REPLIES_SINK, reply.commandId(), reply, now);
            try {
                listener.replied(reply);
            } catch (RuntimeException e) {
                LOG.warn("The listener in this JVM failed on the reply to {}; the replies topic still carries it", reply.commandId(), e);
            }
        }
    }

    private void tellInstanceChanged(String instanceId) {
        try {
            listener.instanceChanged(instanceId);
        } catch (RuntimeException e) {
            LOG.warn("The listener in this JVM failed on a change of instance {}; sop.events still carries it", instanceId, e);
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
        LOG.error("{} {} for instance {} at {} failed; marking the instance failed", describe(command), command.commandId(),
                command.instanceId(), position(), error);
        CommandReply reply = engineError(command);
        if (current.isEmpty() || current.get().isTerminal()) {
            return Decision.reject(reply);
        }
        Transition transition = new Transition(current.get());
        decider.failInstance(transition, StepError.of(ErrorCodes.ENGINE_ERROR, "The engine met an internal error: " + error.getClass().getSimpleName()), now);
        return transition.decide(reply);
    }

    /**
     * A defect met outside a decision (a registration, a timer's command, writing the outcome): answered and skipped.
     * Under exactly-once what this command already wrote is committed with the reply; the alternative, failing the
     * task, would read the same record again after every restart and never get past it.
     */
    private void skipOnEngineError(Command command, RuntimeException error, Instant now) {
        LOG.error("{} {} at {} could not be applied; answering 500 and going on with the next command", describe(command),
                command.commandId(), position(), error);
        forwardReply(engineError(command), now);
    }

    private static CommandReply engineError(Command command) {
        return CommandReply.rejected(command.commandId(), 500, ErrorCodes.ENGINE_ERROR,
                "Expected to apply %s command %s, but the engine met an internal error".formatted(describe(command), command.commandId()));
    }

    /** The command's type as its sender knows it: a held start or an idempotent command is named by what it carries. */
    private static String describe(Command command) {
        Command inner = command instanceof ReleaseStart release ? release.start() : command;
        inner = inner instanceof IdempotentCommand idempotent ? idempotent.command() : inner;
        return inner.getClass().getSimpleName();
    }

    /** Where the record being processed is in the log, for the log: {@code topic-partition@offset}. */
    private String position() {
        return context.recordMetadata().map(meta -> meta.topic() + "-" + meta.partition() + "@" + meta.offset()).orElse("punctuation");
    }
}
