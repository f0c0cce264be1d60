package dev.sopline.engine.state;

import com.fasterxml.jackson.annotation.JsonIgnore;
import dev.sopline.schemas.instance.InstanceState;
import dev.sopline.schemas.instance.InstanceView;
import dev.sopline.schemas.instance.StepError;
import dev.sopline.schemas.instance.StepState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The engine's whole record of one instance, stored as one value so that a command costs one read and one write.
 *
 * @param steps one entry per declared step, in order
 * @param triggerPayload body of the trigger call that started it, for {@code ${trigger.payload...}}
 * @param dataBytes the data counted against the instance's budget so far ({@code InstanceBudget}); 0 in records
 *     written before the budget existed
 */
public record Instance(
        String id,
        String workspace,
        String process,
        String version,
        InstanceState state,
        Map<String, Object> inputs,
        Map<String, Object> outputs,
        StepError error,
        Object triggerPayload,
        Instant startedAt,
        Instant completedAt,
        List<StepRun> steps,
        Long dataBytes) {

    public Instance {
        dataBytes = dataBytes == null ? 0L : dataBytes;
        steps = List.copyOf(steps);
    }

    public Optional<StepRun> step(String stepId) {
        return steps.stream().filter(step -> step.id().equals(stepId)).findFirst();
    }

    public int indexOf(String stepId) {
        for (int i = 0; i < steps.size(); i++) {
            if (steps.get(i).id().equals(stepId)) {
                return i;
            }
        }
        return -1;
    }

    /** The first active step in file order; the only one outside parallel blocks. */
    public Optional<StepRun> activeStep() {
        return steps.stream().filter(StepRun::isActive).findFirst();
    }

    /** The steps active now, in file order: one step, or one per branch of a parallel block still running. */
    public List<StepRun> activeSteps() {
        return steps.stream().filter(StepRun::isActive).toList();
    }

    public Optional<StepRun> stepWithCallback(String callbackId) {
        return steps.stream().filter(step -> callbackId.equals(step.callbackId())).findFirst();
    }

    @JsonIgnore
    public boolean isTerminal() {
        return state.isTerminal();
    }

    public StepState stepState(String stepId) {
        return step(stepId).map(StepRun::state).orElse(null);
    }

    public Instance withStep(StepRun updated) {
        List<StepRun> copy = new ArrayList<>(steps);
        copy.set(indexOf(updated.id()), updated);
        return new Instance(id, workspace, process, version, state, inputs, outputs, error, triggerPayload, startedAt,
                completedAt, copy, dataBytes);
    }

    public Instance withState(InstanceState newState) {
        return new Instance(id, workspace, process, version, newState, inputs, outputs, error, triggerPayload, startedAt,
                completedAt, steps, dataBytes);
    }

    public Instance ended(InstanceState endState, Map<String, Object> endOutputs, StepError endError, Instant now) {
        return new Instance(id, workspace, process, version, endState, inputs, endOutputs, endError, triggerPayload,
                startedAt, now, steps, dataBytes);
    }

    public Instance withDataBytes(long bytes) {
        return new Instance(id, workspace, process, version, state, inputs, outputs, error, triggerPayload, startedAt,
                completedAt, steps, bytes);
    }

    public InstanceView view() {
        return new InstanceView(id, workspace, process, version, state, inputs, outputs == null ? Map.of() : outputs,
                error, startedAt, completedAt, steps.stream().map(StepRun::view).toList());
    }
}
