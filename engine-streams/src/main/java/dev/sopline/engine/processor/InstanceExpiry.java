package dev.sopline.engine.processor;

import dev.sopline.engine.decision.CallbackIds;
import dev.sopline.engine.state.FinishedInstances;
import dev.sopline.engine.state.HistoryStore;
import dev.sopline.engine.state.Instance;
import dev.sopline.engine.state.InstanceIndexes;
import dev.sopline.engine.state.InstanceStore;
import dev.sopline.engine.state.StepRun;
import dev.sopline.schemas.command.ExpireInstance;
import dev.sopline.schemas.definition.StepType;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Decides an {@link ExpireInstance} command: a finished instance whose retention has passed is removed from the
 * instances store, the indexes and its history. Its steps' timers went when the steps ended ({@code AttemptTimers}; a
 * timer set by an earlier version may remain, to find no instance and do nothing). An instance that is not finished
 * (any more), or whose retention, changed since, has not passed as of the command, stays.
 */
final class InstanceExpiry {

    private final InstanceStore instances;
    private final InstanceIndexes indexes;
    private final HistoryStore history;
    private final CallbackIds callbackIds;
    private final Duration retention;

    InstanceExpiry(InstanceStore instances, InstanceIndexes indexes, HistoryStore history, CallbackIds callbackIds, Duration retention) {
        this.instances = instances;
        this.indexes = indexes;
        this.history = history;
        this.callbackIds = callbackIds;
        this.retention = retention;
    }

    /** @return the callback ids whose owners must be removed with the instance; none when it stays */
    List<String> expire(ExpireInstance expire, Instant now) {
        Optional<Instance> current = instances.find(expire.workspace(), expire.instanceId());
        if (current.isEmpty() || !current.get().isTerminal()) {
            return List.of();
        }
        Instance instance = current.get();
        if (FinishedInstances.expiryOf(instance, retention).isAfter(now)) {
            indexes.keepFinished(instance);
            return List.of();
        }
        instances.delete(instance);
        indexes.update(instance, null, null, now);
        history.deleteAll(instance.workspace(), instance.id());
        return callbackIdsOf(instance);
    }

    /** Every callback id the instance's webhook steps were given: one per attempt, derived as the decider did. */
    private List<String> callbackIdsOf(Instance instance) {
        Set<String> ids = new LinkedHashSet<>();
        for (StepRun step : instance.steps()) {
            if (step.callbackId() != null) {
                ids.add(step.callbackId());
            }
            if (step.type() == StepType.WEBHOOK) {
                for (int attempt = 1; attempt <= step.attempt(); attempt++) {
                    ids.add(callbackIds.of(instance.workspace(), instance.id(), step.id(), attempt));
                }
            }
        }
        return List.copyOf(ids);
    }
}
