package dev.sopline.schemas.definition;

import static dev.sopline.schemas.definition.ProcessFilesTest.violations;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import dev.sopline.schemas.json.Json;
import dev.sopline.schemas.validation.Violation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Engine 0.2 files with parallel blocks: how they load, and each rule registration holds them to. */
class ParallelBlocksTest {

    private static final String HEAD = """
            engine: "0.2"
            process:
              name: p
              version: "1.0"
              steps:
            """;

    private static ProcessDefinition load(String text) {
        ProcessFiles.LoadResult result = ProcessFiles.load(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertThat(result).as("%s", result).isInstanceOf(ProcessFiles.Loaded.class);
        return ((ProcessFiles.Loaded) result).file().process();
    }

    private static String example() throws IOException {
        return Files.readString(Path.of("src", "test", "resources", "definitions", "loan-checks.yaml"));
    }

    @Test
    void shouldListEveryStepInFileOrderWithItsBlockAndBranch() throws IOException {
        ProcessDefinition definition = load(example());

        assertThat(definition.steps()).extracting(StepDefinition::id, StepDefinition::block, StepDefinition::branch).containsExactly(
                tuple("intake", null, null),
                tuple("score", "checks", "credit"),
                tuple("kyc", "checks", "identity"),
                tuple("kyc-review", "checks", "identity"),
                tuple("decide", null, null));
        assertThat(definition.blocks()).singleElement().satisfies(block -> {
            assertThat(block.id()).isEqualTo("checks");
            assertThat(block.name()).isEqualTo("Background checks");
            assertThat(block.position()).isEqualTo(1);
            assertThat(block.branches()).extracting(ParallelBlock.Branch::id, ParallelBlock.Branch::steps)
                    .containsExactly(tuple("credit", List.of("score")), tuple("identity", List.of("kyc", "kyc-review")));
        });
    }

    @Test
    void shouldPublishA01DefinitionWithoutAnyTraceOfBlocks() throws IOException {
        ProcessDefinition definition = load(Files.readString(Path.of("src", "test", "resources", "definitions", "expense-approval.yaml")));

        String json = Json.mapper().writeValueAsString(definition);

        assertThat(json).doesNotContain("\"blocks\"").doesNotContain("\"block\"").doesNotContain("\"branch\"");
    }

    @Test
    void shouldReadBackAStoredDefinitionWithItsBlocks() throws IOException {
        ProcessDefinition definition = load(example());

        ProcessDefinition read = Json.mapper().readValue(Json.mapper().writeValueAsString(definition), ProcessDefinition.class);

        assertThat(read).isEqualTo(definition);
    }

    @Test
    void shouldRequireVersion02ForAParallelBlock() throws IOException {
        List<Violation> violations = violations(example().replace("engine: \"0.2\"", "engine: \"0.1\""));

        assertThat(violations).singleElement().satisfies(violation -> {
            assertThat(violation.field()).isEqualTo("process.steps[1].parallel");
            assertThat(violation.code()).isEqualTo("requires_version");
            assertThat(violation.expected()).containsExactly("0.2");
            assertThat(violation.line()).isEqualTo(15);
        });
    }

    @Test
    void shouldAcceptABlockInALaterMinorVersionHoweverLong() throws IOException {
        assertThat(load(example().replace("engine: \"0.2\"", "engine: \"0.99999999999999999999\"")).blocks()).hasSize(1);
    }

    @Test
    void shouldRefuseABlockInsideABranch() {
        List<Violation> violations = violations(HEAD + """
                    - parallel:
                        id: outer
                        branches:
                          - id: a
                            steps:
                              - parallel: {id: inner, branches: [{id: x, steps: [{id: x1, type: form}]}, {id: y, steps: [{id: y1, type: form}]}]}
                          - id: b
                            steps: [{id: b1, type: form}]
                """);

        assertThat(violations).extracting(Violation::field, Violation::code)
                .containsExactly(tuple("process.steps[0].parallel.branches[0].steps[0].parallel", "nested_parallel"));
    }

    @Test
    void shouldRefuseABlockIdThatIsAlsoAStepId() {
        List<Violation> violations = violations(HEAD + """
                    - {id: checks, type: form}
                    - parallel:
                        id: checks
                        branches:
                          - {id: a, steps: [{id: a1, type: form}]}
                          - {id: b, steps: [{id: b1, type: form}]}
                """);

        assertThat(violations).extracting(Violation::field, Violation::code, Violation::line)
                .containsExactly(tuple("process.steps[1].parallel.id", "duplicate", 8));
    }

    @Test
    void shouldRefuseAStepIdThatIsAlsoABlockId() {
        List<Violation> violations = violations(HEAD + """
                    - parallel:
                        id: checks
                        branches:
                          - {id: a, steps: [{id: a1, type: form}]}
                          - {id: b, steps: [{id: checks, type: form}]}
                """);

        assertThat(violations).extracting(Violation::field, Violation::code)
                .containsExactly(tuple("process.steps[0].parallel.branches[1].steps[0].id", "duplicate"));
    }

    @Test
    void shouldRefuseFewerThanTwoBranches() {
        List<Violation> violations = violations(HEAD + """
                    - parallel:
                        id: checks
                        branches:
                          - {id: a, steps: [{id: a1, type: form}]}
                """);

        assertThat(violations).extracting(Violation::field, Violation::code)
                .containsExactly(tuple("process.steps[0].parallel.branches", "out_of_range"));
    }

    @Test
    void shouldRefuseMoreThanSixteenBranches() {
        StringBuilder branches = new StringBuilder();
        for (int i = 0; i < 17; i++) {
            branches.append("          - {id: b%d, steps: [{id: s%d, type: form}]}\n".formatted(i, i));
        }
        List<Violation> violations = violations(HEAD + """
                    - parallel:
                        id: checks
                        branches:
                """ + branches);

        assertThat(violations).extracting(Violation::field, Violation::code)
                .containsExactly(tuple("process.steps[0].parallel.branches", "out_of_range"));
    }

    @Test
    void shouldRefuseDuplicateBranchIds() {
        List<Violation> violations = violations(HEAD + """
                    - parallel:
                        id: checks
                        branches:
                          - {id: a, steps: [{id: a1, type: form}]}
                          - {id: a, steps: [{id: a2, type: form}]}
                """);

        assertThat(violations).extracting(Violation::field, Violation::code)
                .containsExactly(tuple("process.steps[0].parallel.branches[1].id", "duplicate"));
    }

    @Test
    void shouldRefuseABranchWithoutSteps() {
        List<Violation> violations = violations(HEAD + """
                    - parallel:
                        id: checks
                        branches:
                          - {id: a, steps: []}
                          - {id: b, steps: [{id: b1, type: form}]}
                """);

        assertThat(violations).extracting(Violation::field, Violation::code)
                .containsExactly(tuple("process.steps[0].parallel.branches[0].steps", "required"));
    }

    @Test
    void shouldReportAStepWithoutIdInsideABranchAsAViolation() {
        List<Violation> violations = violations(HEAD + """
                    - parallel:
                        id: checks
                        branches:
                          - {id: a, steps: [{type: form}]}
                          - {id: b, steps: [{id: b1, type: form}]}
                """);

        assertThat(violations).extracting(Violation::field, Violation::code, Violation::line)
                .containsExactly(tuple("process.steps[0].parallel.branches[0].steps[0].id", "required", 9));
    }

    @Test
    void shouldRefuseAReferenceIntoASiblingBranch() {
        List<Violation> violations = violations(HEAD + """
                    - parallel:
                        id: checks
                        branches:
                          - {id: a, steps: [{id: a1, type: form, outputs: [{name: x}]}]}
                          - {id: b, steps: [{id: b1, type: form, inputs: {x: "${steps.a1.outputs.x}"}}]}
                """);

        assertThat(violations).extracting(Violation::field, Violation::code)
                .containsExactly(tuple("process.steps[0].parallel.branches[1].steps[0].inputs.x", "unknown_reference"));
    }

    @Test
    void shouldAllowReferencesBeforeTheBlockEarlierInTheBranchAndAfterTheBlock() throws IOException {
        // score reads intake (before the block), kyc-review reads kyc (earlier in its branch), decide reads both branches
        ProcessDefinition definition = load(example());

        assertThat(definition.step("decide").orElseThrow().inputs()).containsKeys("score", "kyc");
    }

    @Test
    void shouldRefuseAReferenceToALaterStepOfTheSameBranch() {
        List<Violation> violations = violations(HEAD + """
                    - parallel:
                        id: checks
                        branches:
                          - {id: a, steps: [{id: a1, type: form, inputs: {x: "${steps.a2.outputs.x}"}}, {id: a2, type: form, outputs: [{name: x}]}]}
                          - {id: b, steps: [{id: b1, type: form}]}
                """);

        assertThat(violations).extracting(Violation::field, Violation::code)
                .containsExactly(tuple("process.steps[0].parallel.branches[0].steps[0].inputs.x", "forward_reference"));
    }

    @Test
    void shouldRefuseUnknownFieldsOfABlockAndABranch() {
        List<Violation> violations = violations(HEAD + """
                    - parallel:
                        id: checks
                        when: always
                        branches:
                          - {id: a, steps: [{id: a1, type: form}], retry: 3}
                          - {id: b, steps: [{id: b1, type: form}]}
                      type: form
                """);

        assertThat(violations).extracting(Violation::field, Violation::code).containsExactlyInAnyOrder(
                tuple("process.steps[0].type", "unknown_field"),
                tuple("process.steps[0].parallel.when", "unknown_field"),
                tuple("process.steps[0].parallel.branches[0].retry", "unknown_field"));
    }
}
