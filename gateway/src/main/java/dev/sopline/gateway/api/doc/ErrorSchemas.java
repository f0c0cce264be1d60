package dev.sopline.gateway.api.doc;

import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.media.Schema.RequiredMode;
import java.util.List;

/** The one error body every failure shares. */
public final class ErrorSchemas {

    private ErrorSchemas() {}

    @Schema(name = "Error", description = "Every error: a stable code, a sentence saying what was expected, and validation details.")
    public record Error(
            @Schema(requiredMode = RequiredMode.REQUIRED, description = "The stable code; each response lists the codes it may carry",
                    example = "invalid_inputs") String error,
            @Schema(description = "What was expected and, where it helps, what to do", example = "Expected inputs that match process 'review' version 1.0")
            String message,
            @Schema(description = "One entry per violation, for validation errors") List<Violation> details) {}

    @Schema(name = "Violation", description = "One thing a body or a process file got wrong.")
    public record Violation(
            @Schema(requiredMode = RequiredMode.REQUIRED, description = "Where: an input or output name, or a path in the process file",
                    example = "inputs.amount") String field,
            @Schema(requiredMode = RequiredMode.REQUIRED, example = "not_in_enum") String code,
            @Schema(example = "Expected one of [low, high], but got 'medium'") String message,
            @Schema(description = "The allowed values, for `not_in_enum`", example = "[\"low\", \"high\"]") List<String> expected,
            @Schema(description = "Line in the process file", example = "14") Integer line,
            @Schema(description = "Column in the process file", example = "11") Integer column) {}
}
