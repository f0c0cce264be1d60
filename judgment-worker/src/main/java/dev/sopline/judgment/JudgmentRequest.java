package dev.sopline.judgment;

import dev.sopline.schemas.definition.OutputDeclaration;
import dev.sopline.schemas.event.StepReady;
import java.util.List;
import java.util.Map;

/**
 * What an agent is asked to decide: the step's label and instructions, its resolved inputs, and the outputs to give.
 *
 * @param process process name
 * @param stepName human label of the step
 * @param instructions the step's {@code judgment.instructions}, or null
 * @param inputs the step's resolved inputs
 * @param outputs the outputs to decide
 */
public record JudgmentRequest(String process, String stepName, String instructions, Map<String, Object> inputs, List<OutputDeclaration> outputs) {

    public static JudgmentRequest of(StepReady ready) {
        return new JudgmentRequest(ready.process(), ready.name() == null ? ready.stepId() : ready.name(),
                ready.judgment() == null ? null : ready.judgment().instructions(), ready.inputs(),
                ready.outputs().stream().filter(output -> !output.isComputed()).toList());
    }
}
