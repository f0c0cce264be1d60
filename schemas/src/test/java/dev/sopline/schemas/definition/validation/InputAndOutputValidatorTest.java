package dev.sopline.schemas.definition.validation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import dev.sopline.schemas.definition.FieldType;
import dev.sopline.schemas.definition.InputDeclaration;
import dev.sopline.schemas.definition.OutputDeclaration;
import dev.sopline.schemas.validation.Violation;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class InputAndOutputValidatorTest {

    private static final List<InputDeclaration> INPUTS = List.of(
            new InputDeclaration("employee", FieldType.STRING, true, List.of(), null),
            new InputDeclaration("amount", FieldType.NUMBER, true, List.of(), null),
            new InputDeclaration("nights", FieldType.INTEGER, false, List.of(), null),
            new InputDeclaration("urgent", FieldType.BOOLEAN, false, List.of(), null),
            new InputDeclaration("category", FieldType.ENUM, false, List.of("travel", "meals"), null));

    @Test
    void shouldAcceptInputsWhenTheyMatchTheDeclarations() {
        assertThat(InputValidator.validate(INPUTS,
                Map.of("employee", "ada", "amount", 12.5, "nights", 2, "urgent", true, "category", "meals"))).isEmpty();
    }

    @Test
    void shouldReportEveryProblemWhenInputsAreWrong() {
        // when
        List<Violation> violations = InputValidator.validate(INPUTS,
                Map.of("amount", "twelve", "nights", 1.5, "urgent", "yes", "category", "hotel", "colour", "red"));

        // then
        assertThat(violations).extracting(Violation::field, Violation::code).containsExactlyInAnyOrder(
                tuple("inputs.employee", "required"),
                tuple("inputs.amount", "invalid_type"),
                tuple("inputs.nights", "invalid_type"),
                tuple("inputs.urgent", "invalid_type"),
                tuple("inputs.category", "not_in_enum"),
                tuple("inputs.colour", "unknown_field"));
        assertThat(violations).filteredOn(v -> v.code().equals("not_in_enum"))
                .singleElement().extracting(Violation::expected).isEqualTo(List.of("travel", "meals"));
    }

    @Test
    void shouldRequireEverySubmittableOutputWhenStepIsSubmitted() {
        // given
        List<OutputDeclaration> outputs = List.of(
                new OutputDeclaration("decision", FieldType.ENUM, List.of("approved", "rejected"), null, null),
                new OutputDeclaration("comment", FieldType.STRING, List.of(), null, null),
                new OutputDeclaration("summary", FieldType.STRING, List.of(), "${inputs.employee}", null));

        // when
        List<Violation> violations = OutputValidator.validate(outputs, Map.of("decision", "maybe", "summary", "x"));

        // then
        assertThat(violations).extracting(Violation::field, Violation::code).containsExactlyInAnyOrder(
                tuple("outputs.decision", "not_in_enum"),
                tuple("outputs.comment", "required"),
                tuple("outputs.summary", "unknown_field"));
    }

    @Test
    void shouldAcceptOutputsWhenTheyMatchTheDeclarations() {
        List<OutputDeclaration> outputs = List.of(new OutputDeclaration("decision", FieldType.ENUM, List.of("approved", "rejected"), null, null));
        assertThat(OutputValidator.validate(outputs, Map.of("decision", "approved"))).isEmpty();
    }

    @Test
    void shouldAcceptSubmitWithoutAnOutputDeclaredNotRequired() {
        // given
        List<OutputDeclaration> outputs = List.of(
                new OutputDeclaration("decision", FieldType.ENUM, List.of("approved", "rejected"), null, null),
                new OutputDeclaration("comment", FieldType.STRING, List.of(), null, null, null, false));

        // when
        List<Violation> withoutComment = OutputValidator.validate(outputs, Map.of("decision", "approved"));
        List<Violation> withoutDecision = OutputValidator.validate(outputs, Map.of("comment", "fine"));
        List<Violation> commentOfWrongType = OutputValidator.validate(outputs, Map.of("decision", "approved", "comment", 3));

        // then
        assertThat(withoutComment).isEmpty();
        assertThat(withoutDecision).extracting(Violation::field, Violation::code).containsExactly(tuple("outputs.decision", "required"));
        assertThat(commentOfWrongType).extracting(Violation::field, Violation::code).containsExactly(tuple("outputs.comment", "invalid_type"));
    }

    @Test
    void shouldKeepAnOutputRequiredWhenReadFromJsonWrittenBeforeTheFieldExisted() {
        OutputDeclaration declaration = dev.sopline.schemas.json.Json.mapper()
                .readValue("{\"name\":\"decision\",\"type\":\"string\"}", OutputDeclaration.class);
        assertThat(declaration.required()).isTrue();
    }

    @Test
    void shouldBoundTheDetailsWhenManyUndeclaredNamesAreSent() {
        // given: 1,000 declared inputs and outputs, and 30,000 names nobody declared, one of them 50,000 characters long
        List<InputDeclaration> inputs = java.util.stream.IntStream.range(0, 1_000)
                .mapToObj(i -> new InputDeclaration("input" + i, FieldType.STRING, false, List.of(), null)).toList();
        List<OutputDeclaration> outputs = java.util.stream.IntStream.range(0, 1_000)
                .mapToObj(i -> new OutputDeclaration("output" + i, FieldType.STRING, List.of(), null, null, null, false)).toList();
        Map<String, Object> sent = new java.util.LinkedHashMap<>();
        sent.put("x".repeat(50_000), 1);
        java.util.stream.IntStream.range(0, 30_000).forEach(i -> sent.put("unknown" + i, 1));

        // when
        List<Violation> inputViolations = InputValidator.validate(inputs, sent);
        List<Violation> outputViolations = OutputValidator.validate(outputs, sent);

        // then
        for (List<Violation> violations : List.of(inputViolations, outputViolations)) {
            assertThat(violations).hasSizeLessThanOrEqualTo(BoundedViolations.MAX);
            assertThat(violations.stream().mapToInt(v -> v.field().length() + v.message().length()).sum()).isLessThan(64 * 1024);
            assertThat(violations.get(violations.size() - 1).code()).isEqualTo("limit_reached");
        }
    }
}
