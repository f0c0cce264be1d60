package dev.sopline.engine.decision;

import dev.sopline.schemas.definition.ParallelBlock;
import dev.sopline.schemas.definition.ProcessDefinition;
import dev.sopline.schemas.definition.StepDefinition;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The order a process runs in, read from its definition: a sequence of stages, each one step or one parallel block
 * whose branches run side by side. It answers the two questions control flow asks: which steps become active when an
 * instance starts, and which when a step completes. Everything else (who resolves a step, its inputs, its timers) is
 * the decider's; a later kind of control flow (a condition, a loop) is a new kind of stage answering the same two
 * questions.
 */
final class ProcessFlow {

    /** One stage: its branches, each the ids of its steps in order; a plain step is a stage of one branch of one step. */
    private record Stage(List<List<String>> branches) {

        List<String> entry() {
            return branches.stream().map(branch -> branch.get(0)).toList();
        }

        List<String> lastSteps() {
            return branches.stream().map(branch -> branch.get(branch.size() - 1)).toList();
        }
    }

    /** Where a step is: its stage, its branch in the stage and its place in the branch. */
    private record Place(int stage, int branch, int index) {}

    private final List<Stage> stages = new ArrayList<>();
    private final Map<String, Place> places = new HashMap<>();

    private ProcessFlow(ProcessDefinition definition) {
        List<StepDefinition> steps = definition.steps();
        int i = 0;
        while (i < steps.size()) {
            StepDefinition step = steps.get(i);
            if (step.block() == null) {
                addStage(List.of(List.of(step.id())));
                i++;
                continue;
            }
            ParallelBlock block = definition.block(step.block()).orElseThrow(
                    () -> new IllegalStateException("Expected block '%s' of step '%s' to be declared".formatted(step.block(), step.id())));
            addStage(block.branches().stream().map(ParallelBlock.Branch::steps).toList());
            i += block.branches().stream().mapToInt(branch -> branch.steps().size()).sum();
        }
    }

    static ProcessFlow of(ProcessDefinition definition) {
        return new ProcessFlow(definition);
    }

    private void addStage(List<List<String>> branches) {
        int stage = stages.size();
        stages.add(new Stage(branches));
        for (int b = 0; b < branches.size(); b++) {
            for (int k = 0; k < branches.get(b).size(); k++) {
                places.put(branches.get(b).get(k), new Place(stage, b, k));
            }
        }
    }

    /** The steps that become active when an instance starts: the first stage's entry. */
    List<String> entry() {
        return stages.isEmpty() ? List.of() : stages.get(0).entry();
    }

    /**
     * What follows the completion of {@code stepId}: the next step of its branch; else, once every branch of its stage
     * has completed, the next stage's entry; else nothing yet (a join still waiting for a branch).
     *
     * @param completed whether a step has completed, the one just completed included
     */
    Next afterCompleted(String stepId, Predicate<String> completed) {
        Place place = places.get(stepId);
        if (place == null) {
            throw new IllegalArgumentException("Expected step '%s' to be declared".formatted(stepId));
        }
        Stage stage = stages.get(place.stage());
        List<String> branch = stage.branches().get(place.branch());
        if (place.index() + 1 < branch.size()) {
            return Next.activate(List.of(branch.get(place.index() + 1)));
        }
        if (!stage.lastSteps().stream().allMatch(completed)) {
            return Next.JOIN;
        }
        int following = place.stage() + 1;
        return following < stages.size() ? Next.activate(stages.get(following).entry()) : Next.END;
    }

    /**
     * What a completed step leads to.
     *
     * @param steps the steps to activate; empty for {@link #JOIN} and {@link #END}
     * @param end whether the instance has run its last stage
     */
    record Next(List<String> steps, boolean end) {

        /** A branch finished but a sibling has not: nothing starts yet. */
        static final Next JOIN = new Next(List.of(), false);
        /** The last stage finished: the instance completes. */
        static final Next END = new Next(List.of(), true);

        static Next activate(List<String> steps) {
            return new Next(List.copyOf(steps), false);
        }
    }
}
