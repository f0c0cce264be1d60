package dev.sopline.gateway.api;

import dev.sopline.gateway.api.doc.ApiTags;
import dev.sopline.gateway.command.CommandBus;
import dev.sopline.gateway.engine.EngineAccess;
import dev.sopline.gateway.web.ApiException;
import dev.sopline.gateway.web.JsonBodies;
import dev.sopline.schemas.command.ErrorCodes;
import dev.sopline.schemas.command.ReportStepResult;
import dev.sopline.schemas.definition.StepType;
import dev.sopline.schemas.event.StepResult;
import dev.sopline.schemas.instance.InstanceView;
import dev.sopline.schemas.instance.StepState;
import dev.sopline.schemas.instance.StepView;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

/**
 * Heartbeats of HTTP workers: a worker still running a long automated step says so, and the engine moves the step's
 * deadline by its {@code heartbeat_timeout}. The heartbeat goes through the command log like a Kafka worker's, so the
 * engine decides it in order with everything else that happens to the instance; nobody waits for its decision.
 */
@RestController
@Tag(name = ApiTags.STEPS)
public class StepHeartbeatController {

    private final EngineAccess engine;
    private final RequestScope scope;
    private final CommandBus commands;

    public StepHeartbeatController(EngineAccess engine, RequestScope scope, CommandBus commands) {
        this.engine = engine;
        this.scope = scope;
        this.commands = commands;
    }

    @Operation(operationId = "heartbeatStep", summary = "Tell the engine an automated step is still being worked on",
            description = "For an automated step with a `heartbeat_timeout`: its deadline moves to that long after the heartbeat. "
                    + "Send one well within each `heartbeat_timeout`; an attempt whose heartbeats stop times out and is retried, so "
                    + "another worker takes it. The body may name the `attempt` being worked on (from `listPendingSteps`); a heartbeat "
                    + "for an attempt that is no longer current changes nothing. Accepted once the engine's log holds it.",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = false,
                    content = @Content(mediaType = "application/json", schema = @Schema(implementation = HeartbeatRequest.class))),
            responses = @ApiResponse(responseCode = "202", description = "The heartbeat, accepted",
                    content = @Content(mediaType = "application/json", schema = @Schema(implementation = Heartbeat.class))))
    @PostMapping("/sop/{name}/{id}/steps/{stepId}/heartbeat")
    public ResponseEntity<Map<String, Object>> heartbeat(@Parameter(description = "The process name", example = "report") @PathVariable String name,
                                                         @Parameter(description = "The instance id") @PathVariable String id,
                                                         @Parameter(description = "The step id", example = "build") @PathVariable String stepId,
                                                         @RequestBody(required = false) byte[] body, HttpServletRequest request) {
        String workspace = scope.workspace(request);
        InstanceView instance = engine.queries().instanceAnswer(workspace, id)
                .filter(answer -> answer.value().process().equals(name))
                .orElseThrow(() -> InstanceAbsence.of(name, id)).value();
        StepView step = instance.steps().stream().filter(candidate -> candidate.id().equals(stepId)).findFirst()
                .orElseThrow(() -> new ApiException(404, ErrorCodes.NOT_FOUND, "Expected a step '%s' in instance %s".formatted(stepId, id)));
        if (step.type() != StepType.AUTOMATED || step.state() != StepState.ACTIVE) {
            // 422 as for a submit to a step not active: the code means the same wherever it is answered.
            throw new ApiException(422, ErrorCodes.INVALID_TRANSITION,
                    "Expected step '%s' to be an active automated step, but it is a %s step, %s".formatted(stepId, step.type().wireName(),
                            step.state().wireName()));
        }
        int attempt = attempt(body, step.attempt());
        // The token is checked here: the heartbeat needs no result key (SOP_RESULT_KEYS=required).
        commands.publish(new ReportStepResult(StepResult.heartbeat(workspace, id, stepId, attempt, "http:" + scope.caller(request), Instant.now()), true));
        Map<String, Object> accepted = new LinkedHashMap<>();
        accepted.put("instance_id", id);
        accepted.put("step_id", stepId);
        accepted.put("attempt", attempt);
        return ResponseEntity.accepted().body(accepted);
    }

    /** The attempt the worker names, or the step's current one. */
    private static int attempt(byte[] body, int current) {
        if (body == null || body.length == 0) {
            return current;
        }
        Integer named = NamedAttempt.of(JsonBodies.object(body));
        return named != null ? named : current;
    }

    @Schema(name = "HeartbeatRequest", description = "Which attempt the worker is running; optional.")
    record HeartbeatRequest(@Schema(description = "The attempt from the pending feed; the current one when absent", example = "1") Integer attempt) {}

    @Schema(name = "Heartbeat", description = "An accepted heartbeat.")
    record Heartbeat(
            @com.fasterxml.jackson.annotation.JsonProperty("instance_id") @Schema(requiredMode = Schema.RequiredMode.REQUIRED) String instanceId,
            @com.fasterxml.jackson.annotation.JsonProperty("step_id") @Schema(requiredMode = Schema.RequiredMode.REQUIRED, example = "build") String stepId,
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED, example = "1") int attempt) {}
}
