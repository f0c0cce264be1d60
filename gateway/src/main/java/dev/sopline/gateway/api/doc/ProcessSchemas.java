package dev.sopline.gateway.api.doc;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.media.Schema.RequiredMode;
import java.util.List;
import java.util.Map;

/** Processes: the list, one version's definition, and the answer to a registration. */
public final class ProcessSchemas {

    private ProcessSchemas() {}

    @Schema(name = "ProcessSummary", description = "The latest version of a published process.")
    public record ProcessSummary(
            @Schema(requiredMode = RequiredMode.REQUIRED, example = "review") String name,
            @Schema(requiredMode = RequiredMode.REQUIRED, example = "1.0") String version,
            @Schema(requiredMode = RequiredMode.REQUIRED, description = "Empty when the file has none", example = "Review a report") String description,
            @Schema(requiredMode = RequiredMode.REQUIRED, description = "Empty when the file has none", example = "docs-team") String owner) {}

    @Schema(name = "RegisteredProcess", description = "The process version the file published.")
    public record RegisteredProcess(
            @Schema(requiredMode = RequiredMode.REQUIRED, example = "review") String name,
            @Schema(requiredMode = RequiredMode.REQUIRED, example = "1.0") String version) {}

    @Schema(name = "ProcessDefinition", description = "One published version of a process, as its file declares it.")
    public record ProcessDefinition(
            @Schema(requiredMode = RequiredMode.REQUIRED, example = "review") String name,
            @Schema(requiredMode = RequiredMode.REQUIRED, example = "1.0") String version,
            @Schema(example = "docs-team") String owner,
            @Schema(example = "Review a report") String description,
            @Schema(description = "How instances start: `{\"type\": \"api\"}`, a webhook trigger or a schedule",
                    example = "{\"type\": \"api\"}") Map<String, Object> trigger,
            @Schema(requiredMode = RequiredMode.REQUIRED, description = "What a start must give") List<InputDeclaration> inputs,
            @Schema(requiredMode = RequiredMode.REQUIRED) List<OutputDeclaration> outputs,
            @Schema(requiredMode = RequiredMode.REQUIRED, description = "The steps in order, as the file declares them (`id`, `type`, "
                    + "`name`, `run`, `inputs`, `outputs`, `timeout`, `retry`, `judgment`, and `parallel` blocks in engine 0.2)")
            List<Map<String, Object>> steps) {}

    @Schema(name = "InputDeclaration", description = "A declared input of a process.")
    public record InputDeclaration(
            @Schema(requiredMode = RequiredMode.REQUIRED, example = "title") String name,
            @Schema(requiredMode = RequiredMode.REQUIRED, allowableValues = {"string", "enum", "number", "integer", "boolean"},
                    example = "string") String type,
            @Schema(example = "true") Boolean required,
            @Schema(description = "The allowed values of an `enum`") List<String> values,
            @Schema(example = "The report's title") String description) {}

    @Schema(name = "OutputDeclaration", description = "A declared output of a process or a step.")
    public record OutputDeclaration(
            @Schema(requiredMode = RequiredMode.REQUIRED, example = "verdict") String name,
            @Schema(allowableValues = {"string", "enum", "number", "integer", "boolean"}, example = "enum") String type,
            @Schema(description = "The allowed values of an `enum`", example = "[\"accept\", \"reject\"]") List<String> values,
            @Schema(description = "An expression that computes the output; such an output is not submitted") Object value,
            @Schema(example = "Accept or reject the report") String description,
            @Schema(description = "A form's label for the field", example = "Verdict") String label,
            @Schema(description = "Whether a submit must give it", example = "true") Boolean required) {}

    @Schema(name = "Metrics", description = "Counters of the caller's workspace.")
    public record Metrics(
            @Schema(requiredMode = RequiredMode.REQUIRED, description = "Published processes", example = "3") Integer processes,
            @Schema(requiredMode = RequiredMode.REQUIRED) InstanceCounts instances,
            @JsonProperty("steps_pending") @Schema(requiredMode = RequiredMode.REQUIRED) StepCounts stepsPending,
            @Schema(requiredMode = RequiredMode.REQUIRED, description = "Escalated judgment steps waiting for a person; with "
                    + "window, the escalations that happened in the window", example = "1")
            Long escalations,
            @Schema(description = "With window only: the window asked for, as given", example = "1h") String window,
            @Schema(description = "With window only: instances started in the window", example = "12") Long started,
            @Schema(description = "With window only: instances completed in the window", example = "10") Long completed,
            @Schema(description = "With window only: instances failed in the window", example = "1") Long failed,
            @Schema(description = "With window only: instances cancelled in the window", example = "0") Long cancelled,
            @JsonProperty("duration_ms") @Schema(description = "With window only: durations of the instances completed in it")
            WindowDurations durationMs,
            @JsonProperty("generated_at") @Schema(requiredMode = RequiredMode.REQUIRED, format = "date-time",
                    example = InstanceSchemas.TIME) String generatedAt) {}

    @Schema(name = "WindowDurations", description = "completed_at − started_at of the instances completed in the window, in "
            + "milliseconds; null when none completed. p50 and p95 within 2%, max exact.")
    public record WindowDurations(
            @Schema(nullable = true, example = "5400") Long p50,
            @Schema(nullable = true, example = "60200") Long p95,
            @Schema(nullable = true, example = "61000") Long max) {}

    @Schema(name = "InstanceCounts", description = "Instances by state.")
    public record InstanceCounts(
            @Schema(example = "4") Long running,
            @Schema(example = "2") Long waiting,
            @Schema(example = "40") Long completed,
            @Schema(example = "1") Long failed,
            @Schema(example = "0") Long cancelled) {}

    @Schema(name = "StepCounts", description = "Active steps by type.")
    public record StepCounts(
            @Schema(example = "2") Long form,
            @Schema(example = "3") Long automated,
            @Schema(example = "1") Long judgment,
            @Schema(example = "0") Long webhook) {}
}
