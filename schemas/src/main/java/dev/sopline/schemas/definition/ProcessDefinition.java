package dev.sopline.schemas.definition;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Optional;

/**
 * One version of a process: what starts it, what it takes and gives, and its ordered steps.
 *
 * <p>{@code steps} holds every declared step in file order, those inside a parallel block too (branch by branch, each
 * naming its block and branch), so that code which only needs "every step" never has to walk blocks; {@code blocks}
 * says how the steps of each block are arranged. A file without blocks has none, and its stored and published form
 * is the same as before blocks existed.
 *
 * @param name identifier used in paths
 * @param version {@code <major>.<minor>} version string, compared numerically part by part
 * @param owner optional owner, free text
 * @param description optional description
 * @param trigger how instances start; {@code api} when the file declares none
 * @param inputs declared instance inputs
 * @param outputs declared instance outputs
 * @param steps every declared step in file order, branch by branch inside a block
 * @param blocks the parallel blocks, in file order; empty in a file without any
 */
public record ProcessDefinition(
        String name,
        String version,
        String owner,
        String description,
        Trigger trigger,
        List<InputDeclaration> inputs,
        List<OutputDeclaration> outputs,
        List<StepDefinition> steps,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<ParallelBlock> blocks) {

    public ProcessDefinition {
        inputs = List.copyOf(inputs);
        outputs = List.copyOf(outputs);
        steps = List.copyOf(steps);
        blocks = blocks == null ? List.of() : List.copyOf(blocks);
    }

    /** A process without parallel blocks. */
    public ProcessDefinition(String name, String version, String owner, String description, Trigger trigger,
                             List<InputDeclaration> inputs, List<OutputDeclaration> outputs, List<StepDefinition> steps) {
        this(name, version, owner, description, trigger, inputs, outputs, steps, List.of());
    }

    public Optional<StepDefinition> step(String stepId) {
        return steps.stream().filter(step -> stepId != null && stepId.equals(step.id())).findFirst();
    }

    public Optional<ParallelBlock> block(String blockId) {
        return blocks.stream().filter(block -> blockId != null && blockId.equals(block.id())).findFirst();
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
