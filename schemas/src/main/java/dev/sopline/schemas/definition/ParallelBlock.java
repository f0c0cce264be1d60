package dev.sopline.schemas.definition;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * A parallel block of an {@code engine: "0.2"} file: branches that run side by side, each its own steps in order.
 * The block's steps are also in {@link ProcessDefinition#steps()}, in file order (branch by branch), each naming its
 * block and branch; the block itself says where it stands and how its branches are made up.
 *
 * @param id unique among all step and block ids
 * @param name optional human label
 * @param position where the block stands in the file's {@code process.steps} list
 * @param branches 2 to {@value #MAX_BRANCHES} branches, in file order
 */
public record ParallelBlock(String id, String name, int position, List<Branch> branches) {

    public static final int MIN_BRANCHES = 2;
    public static final int MAX_BRANCHES = 16;

    public ParallelBlock {
        branches = branches == null ? List.of() : List.copyOf(branches);
    }

    public Optional<Branch> branch(String branchId) {
        return branches.stream().filter(branch -> branchId != null && branchId.equals(branch.id())).findFirst();
    }

    public String label() {
        return name == null ? id : name;
    }

    /**
     * One branch of a block.
     *
     * @param id unique within its block
     * @param steps the ids of its steps, in the order they run; null for a step declared without an id (a file still
     *     being validated), so that every step keeps its place
     */
    public record Branch(String id, List<String> steps) {

        public Branch {
            steps = steps == null ? List.of() : Collections.unmodifiableList(new ArrayList<>(steps));
        }
    }
}
