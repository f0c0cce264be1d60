package dev.sopline.gateway.api.doc;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.media.Schema.RequiredMode;
import java.util.List;
import java.util.Map;

/** Instances and their steps, as the instance, step, start and submit operations answer them. */
public final class InstanceSchemas {

    static final String INSTANCE_ID = "01JD3M7ZK8Q2W5X0S9V4R6T1YB";
    static final String TIME = "2026-01-31T09:30:00Z";

    private InstanceSchemas() {}

    @Schema(name = "StartRequest", description = "The instance's inputs, checked against the process's declared inputs "
            + "(`GET /sop/{name}/schema` lists them).")
    public record StartRequest(
            @Schema(requiredMode = RequiredMode.REQUIRED, description = "Declared input name to value",
                    example = "{\"title\": \"Quarterly report\", \"amount\": 1200}")
            Map<String, Object> inputs) {}

    @Schema(name = "StartedInstance", description = "The instance just created.")
    public record StartedInstance(
            @Schema(requiredMode = RequiredMode.REQUIRED, example = INSTANCE_ID) String id,
            @Schema(requiredMode = RequiredMode.REQUIRED, example = "review") String process,
            @Schema(requiredMode = RequiredMode.REQUIRED, example = "1.0") String version,
            @Schema(requiredMode = RequiredMode.REQUIRED, allowableValues = {"pending", "running", "waiting", "completed", "failed", "cancelled"},
                    example = "running") String state,
            @JsonProperty("started_at") @Schema(requiredMode = RequiredMode.REQUIRED, format = "date-time", example = TIME) String startedAt) {}

    @Schema(name = "InstanceSummary", description = "An entry of the instance list.")
    public record InstanceSummary(
            @Schema(requiredMode = RequiredMode.REQUIRED, example = INSTANCE_ID) String id,
            @Schema(requiredMode = RequiredMode.REQUIRED, example = "review") String process,
            @Schema(requiredMode = RequiredMode.REQUIRED, example = "1.0") String version,
            @Schema(requiredMode = RequiredMode.REQUIRED, allowableValues = {"pending", "running", "waiting", "completed", "failed", "cancelled"},
                    example = "waiting") String state,
            @JsonProperty("started_at") @Schema(requiredMode = RequiredMode.REQUIRED, format = "date-time", example = TIME) String startedAt,
            @JsonProperty("completed_at") @Schema(format = "date-time", description = "Set once the instance is terminal") String completedAt) {}

    @Schema(name = "Instance", description = "An instance with every declared step in order; steps not reached yet are `pending`.")
    public record Instance(
            @Schema(requiredMode = RequiredMode.REQUIRED, example = INSTANCE_ID) String id,
            @Schema(requiredMode = RequiredMode.REQUIRED, example = "review") String process,
            @Schema(requiredMode = RequiredMode.REQUIRED, example = "1.0") String version,
            @Schema(requiredMode = RequiredMode.REQUIRED, allowableValues = {"pending", "running", "waiting", "completed", "failed", "cancelled"},
                    description = "`running` while a machine works, `waiting` while a person or a third party is expected",
                    example = "waiting") String state,
            @Schema(description = "The inputs it was started with", example = "{\"title\": \"Quarterly report\"}") Map<String, Object> inputs,
            @Schema(description = "The process's declared outputs, once known", example = "{\"verdict\": \"accept\"}") Map<String, Object> outputs,
            @Schema(description = "Why a failed instance failed") Failure error,
            @JsonProperty("started_at") @Schema(requiredMode = RequiredMode.REQUIRED, format = "date-time", example = TIME) String startedAt,
            @JsonProperty("completed_at") @Schema(format = "date-time") String completedAt,
            @Schema(requiredMode = RequiredMode.REQUIRED) List<Step> steps) {}

    @Schema(name = "Step", description = "One declared step of an instance.")
    public record Step(
            @Schema(requiredMode = RequiredMode.REQUIRED, example = "read") String id,
            @Schema(example = "Read the report") String name,
            @Schema(requiredMode = RequiredMode.REQUIRED, allowableValues = {"form", "automated", "judgment", "webhook"}, example = "form") String type,
            @Schema(requiredMode = RequiredMode.REQUIRED, allowableValues = {"pending", "active", "completed", "failed", "cancelled"},
                    example = "active") String state,
            @Schema(description = "1 for the first attempt; automated steps retry", example = "1") Integer attempt,
            @Schema(allowableValues = {"agent", "human", "worker", "third_party"}, example = "human") String assignee,
            @Schema(description = "A judgment step handed to a person") Boolean escalated,
            @Schema(description = "How a judgment step was decided") Decision decision,
            @JsonProperty("callback_url") @Schema(description = "A webhook step's one-shot URL for the third party. Shown to tokens of role "
                    + "`worker` and above only: the URL resolves the step without a token",
                    example = "https://sop.example.com/sop/webhooks/01JD3M8A1B2C3D4E5F6G7H8J9K") String callbackUrl,
            @Schema(description = "The step's outputs once completed", example = "{\"verdict\": \"accept\"}") Map<String, Object> outputs,
            @Schema(description = "Why the step failed") Failure error,
            @Schema(description = "The parallel block the step belongs to (engine 0.2)", example = "checks") String block,
            @Schema(description = "The branch of that block (engine 0.2)", example = "credit") String branch,
            @JsonProperty("started_at") @Schema(format = "date-time", example = TIME) String startedAt,
            @JsonProperty("completed_at") @Schema(format = "date-time") String completedAt) {}

    @Schema(name = "Failure", description = "What failed: the step, a stable code and a sentence.")
    public record Failure(
            @JsonProperty("step_id") @Schema(example = "charge") String stepId,
            @Schema(requiredMode = RequiredMode.REQUIRED, example = "step_timeout") String code,
            @Schema(example = "The step did not complete within 15m") String message,
            @Schema(description = "false when the worker said retrying could not help; absent otherwise", example = "false") Boolean retryable) {}

    @Schema(name = "Decision", description = "Who decided a judgment step, and how sure an agent was.")
    public record Decision(
            @Schema(requiredMode = RequiredMode.REQUIRED, allowableValues = {"agent", "human"}, example = "agent") String by,
            @Schema(example = "0.92") Double confidence,
            @Schema(example = "The amount is under the limit") String rationale,
            @Schema(example = "local") String model) {}

    @Schema(name = "SubmitRequest", description = "A step's outputs; or, from an HTTP worker reporting a failed attempt of an "
            + "automated step, `error` instead of `outputs`.")
    public record SubmitRequest(
            @Schema(description = "Declared output name to value; every declared output without a `value` expression",
                    example = "{\"verdict\": \"accept\"}") Map<String, Object> outputs,
            @Schema(description = "A failed attempt, instead of outputs") WorkerError error,
            @Schema(description = "The attempt these outputs or this error are for (from `listPendingSteps`); a result of an "
                    + "attempt that is no longer the step's current one is refused with 422 `invalid_transition`. Absent: the "
                    + "current attempt", minimum = "1", example = "1") Integer attempt) {}

    @Schema(name = "WorkerError", description = "A failed attempt as a worker reports it.")
    public record WorkerError(
            @Schema(requiredMode = RequiredMode.REQUIRED, example = "upstream_down") String code,
            @Schema(example = "The billing service answered 503") String message,
            @Schema(description = "false: retrying cannot help (a declined card), so the step fails at once after this attempt; "
                    + "absent or true: the step is retried by its policy", example = "false") Boolean retryable) {}

    @Schema(name = "PendingStep", description = "A step waiting to be resolved, with what is needed to resolve it.")
    public record PendingStep(
            @JsonProperty("instance_id") @Schema(requiredMode = RequiredMode.REQUIRED, example = INSTANCE_ID) String instanceId,
            @Schema(requiredMode = RequiredMode.REQUIRED, example = "review") String process,
            @Schema(requiredMode = RequiredMode.REQUIRED, example = "1.0") String version,
            @JsonProperty("step_id") @Schema(requiredMode = RequiredMode.REQUIRED, example = "read") String stepId,
            @Schema(example = "Read the report") String name,
            @Schema(requiredMode = RequiredMode.REQUIRED, allowableValues = {"form", "automated", "judgment", "webhook"}, example = "form") String type,
            @Schema(description = "An automated step's task name, which workers poll for", example = "billing.charge") String run,
            @Schema(allowableValues = {"agent", "human", "worker", "third_party"}, example = "human") String assignee,
            @Schema(example = "false") Boolean escalated,
            @Schema(description = "The step's resolved inputs", example = "{\"title\": \"Quarterly report\"}") Map<String, Object> inputs,
            @Schema(description = "The outputs a submit must give") List<ProcessSchemas.OutputDeclaration> outputs,
            @Schema(example = "1") Integer attempt,
            @Schema(description = "An escalated judgment's proposed outputs") Map<String, Object> proposal,
            @Schema(description = "An escalated judgment's agent decision") Decision decision,
            @Schema(description = "A judgment step's instructions") String instructions,
            @JsonProperty("callback_url") @Schema(description = "A webhook step's one-shot URL; shown to tokens of role `worker` and above only")
            String callbackUrl,
            @Schema(description = "The parallel block the step belongs to (engine 0.2)", example = "checks") String block,
            @Schema(description = "The branch of that block (engine 0.2)", example = "credit") String branch,
            @JsonProperty("created_at") @Schema(requiredMode = RequiredMode.REQUIRED, format = "date-time", example = TIME) String createdAt) {}

    @Schema(name = "TriggeredInstance", description = "The instance a trigger started.")
    public record TriggeredInstance(
            @Schema(requiredMode = RequiredMode.REQUIRED, example = INSTANCE_ID) String id,
            @Schema(requiredMode = RequiredMode.REQUIRED, example = "onboarding") String process,
            @Schema(requiredMode = RequiredMode.REQUIRED, example = "running") String state) {}
}
