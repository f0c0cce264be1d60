package dev.sopline.engine.decision;

import dev.sopline.engine.state.Instance;
import dev.sopline.engine.state.StepRun;
import dev.sopline.engine.state.Timer;
import dev.sopline.schemas.command.CommandReply;
import dev.sopline.schemas.event.InstanceRetried;
import dev.sopline.schemas.event.InstanceStateChanged;
import dev.sopline.schemas.event.StepReady;
import dev.sopline.schemas.event.StepStateChanged;
import dev.sopline.schemas.instance.InstanceState;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Accumulates one decision: every change to the instance records the event that tells subscribers about it. */
public final class Transition {

    private final Instance initial;
    private Instance instance;
    private final List<Object> events = new ArrayList<>();
    private final List<Timer> timers = new ArrayList<>();

    public Transition(Instance instance) {
        this.initial = instance;
        this.instance = instance;
    }

    /**
     * Whether the decision so far leaves everything as it was: every change replaces the instance (it is immutable)
     * or adds an event or a timer, so an untouched instance with neither means there is nothing to write.
     */
    public boolean changedNothing() {
        return instance == initial && events.isEmpty() && timers.isEmpty();
    }

    public Instance instance() {
        return instance;
    }

    void created() {
        events.add(new InstanceStateChanged(null, instance.state(), instance.view()));
    }

    void moveTo(InstanceState state) {
        InstanceState from = instance.state();
        if (from == state) {
            return;
        }
        instance = instance.withState(state);
        events.add(new InstanceStateChanged(from, state, instance.view()));
    }

    void replaceInstance(Instance ended) {
        InstanceState from = instance.state();
        instance = ended;
        events.add(new InstanceStateChanged(from, ended.state(), ended.view()));
    }

    /**
     * The failed instance, its error and end time cleared, as the start of a retry: no event, as its state has not
     * changed yet; the {@code retried} event and the changes that follow say what happened.
     */
    void reopen(Instance cleared) {
        instance = cleared;
    }

    /** An operator retried the failed instance: told once the steps are active again. */
    public void retried(String stepId, int attempt) {
        events.add(new InstanceRetried(stepId, attempt, instance.view()));
    }

    void updateStep(StepRun updated) {
        StepRun before = instance.step(updated.id()).orElseThrow();
        instance = instance.withStep(updated);
        if (before.state() != updated.state() || before.escalated() != updated.escalated()) {
            events.add(new StepStateChanged(instance.workspace(), instance.id(), instance.process(), instance.version(),
                    before.state(), updated.state(), updated.view()));
        }
    }

    void ready(StepReady ready) {
        events.add(ready);
    }

    /** Data entering or leaving the instance, counted against its budget; no event tells of it. */
    void countData(long bytes) {
        instance = instance.withDataBytes(instance.dataBytes() + bytes);
    }

    void timer(Timer timer) {
        timers.add(timer);
    }

    public Decision decide(CommandReply reply) {
        return new Decision(Optional.of(instance), List.copyOf(events), Optional.ofNullable(reply), List.copyOf(timers), List.of());
    }
}
