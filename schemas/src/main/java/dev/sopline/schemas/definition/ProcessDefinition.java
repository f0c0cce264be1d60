package dev.sopline.schemas.definition;

import java.util.List;
import java.util.Optional;

/**
 * One version of a process: what starts it, what it takes and gives, and its ordered steps.
 *
 * @param name identifier used in paths
 * @param version {@code <major>.<minor>} version string, compared numerically part by part
 * @param owner optional owner, free text
 * @param description optional description
 * @param trigger how instances start; {@code api} when the file declares none
 * @param inputs declared instance inputs
 * @param outputs declared instance outputs
 * @param steps ordered steps
 */
public record ProcessDefinition(
        String name,
        String version,
        String owner,
        String description,
        Trigger trigger,
        List<InputDeclaration> inputs,
        List<OutputDeclaration> outputs,
        List<StepDefinition> steps) {

    public ProcessDefinition {
        inputs = List.copyOf(inputs);
        outputs = List.copyOf(outputs);
        steps = List.copyOf(steps);
    }

    public Optional<StepDefinition> step(String stepId) {
        return steps.stream().filter(step -> stepId != null && stepId.equals(step.id())).findFirst();
    }

    /**
     * Position of the step in the declared order, or -1 when no step has this id. Steps without an id (a file still
     * being validated) match nothing.
     */
    public int indexOf(String stepId) {
        for (int i = 0; i < steps.size(); i++) {
            if (stepId != null && stepId.equals(steps.get(i).id())) {
                return i;
            }
        }
        return -1;
    }
}
