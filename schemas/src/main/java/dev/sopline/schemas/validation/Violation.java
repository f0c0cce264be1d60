package dev.sopline.schemas.validation;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * One problem found in a process file, an instance's inputs or a step's outputs: the {@code details} entries of
 * {@code invalid_definition}, {@code invalid_inputs} and {@code invalid_outputs} errors.
 *
 * @param field path of the offending value, for example {@code process.steps[2].type} or {@code inputs.amount}
 * @param code stable code from {@link ViolationCode}
 * @param message a sentence for people
 * @param expected allowed values, for enumerations
 * @param line 1-based line in the process file, when the problem has a place in one
 * @param column 1-based column in the process file, when the problem has a place in one
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Violation(String field, String code, String message, List<String> expected, Integer line, Integer column) {

    public static Violation of(String field, String code, String message) {
        return new Violation(field, code, message, null, null, null);
    }

    public static Violation notInEnum(String field, Object actual, List<String> expected) {
        return new Violation(field, ViolationCode.NOT_IN_ENUM,
                "Expected one of %s, but got '%s'".formatted(expected, actual), List.copyOf(expected), null, null);
    }

    public Violation at(SourcePosition position) {
        return position == null ? this : new Violation(field, code, message, expected, position.line(), position.column());
    }
}
