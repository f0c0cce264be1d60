package dev.sopline.gateway.api.doc;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.media.Schema.RequiredMode;
import java.util.Map;

/** An instance's history, as {@code GET /sop/{name}/{id}/history} answers it (CONTRACT section 11). */
public final class HistorySchemas {

    private HistorySchemas() {}

    @Schema(name = "HistoryEntry", description = "One change of an instance or of one of its steps, or a step's new attempt, with who "
            + "caused it.")
    public record Entry(
            @Schema(requiredMode = RequiredMode.REQUIRED, format = "date-time", example = InstanceSchemas.TIME) String at,
            @Schema(requiredMode = RequiredMode.REQUIRED, allowableValues = {"instance", "step"}, example = "step") String kind,
            @JsonProperty("step_id") @Schema(description = "The step, on step entries", example = "charge") String stepId,
            @Schema(requiredMode = RequiredMode.REQUIRED, nullable = true,
                    description = "The state before; null on the instance's creation", example = "active") String from,
            @Schema(requiredMode = RequiredMode.REQUIRED, description = "The state after", example = "completed") String to,
            @Schema(description = "The step's attempt, on step entries", example = "2") Integer attempt,
            @Schema(requiredMode = RequiredMode.REQUIRED) Actor by,
            @Schema(description = "`error` of a failed step or attempt, `decision` of an agent's judgment, `proposal` of an escalated one",
                    example = "{\"error\": {\"code\": \"card_declined\", \"message\": \"The bank said no\"}}") Map<String, Object> detail) {}

    @Schema(name = "HistoryActor", description = "Who caused a change: a token (a person or an HTTP worker acts through one; never "
            + "its secret), a worker over Kafka, an agent (`id` the model), a webhook callback, a timer, or the engine itself.")
    public record Actor(
            @Schema(requiredMode = RequiredMode.REQUIRED, allowableValues = {"token", "worker", "agent", "callback", "timer", "engine"},
                    example = "token") String type,
            @Schema(description = "The token id, worker id, model or callback id", example = "01JD3M7ZK8Q2W5X0S9V4R6T1YC") String id,
            @Schema(description = "The token's name", example = "ops laptop") String name) {}
}
