package dev.sopline.gateway.api;

import dev.sopline.engine.api.query.Answer;
import dev.sopline.engine.api.query.Page;
import dev.sopline.gateway.api.doc.ApiTags;
import dev.sopline.gateway.api.doc.InstanceSchemas;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import dev.sopline.engine.api.query.PendingFilter;
import dev.sopline.gateway.engine.EngineAccess;
import dev.sopline.gateway.web.ApiException;
import dev.sopline.schemas.definition.StepType;
import dev.sopline.schemas.instance.Assignee;
import dev.sopline.schemas.instance.PendingStep;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** The feed of steps waiting to be resolved, which HTTP workers poll and task lists show. */
@RestController
@Tag(name = ApiTags.STEPS, description = "The steps waiting to be resolved, for workers and task lists")
public class PendingStepController {

    private final EngineAccess engine;
    private final RequestScope scope;

    public PendingStepController(EngineAccess engine, RequestScope scope) {
        this.engine = engine;
        this.scope = scope;
    }

    @Operation(operationId = "listPendingSteps", summary = "List the active steps waiting to be resolved",
            description = "Oldest first. Each entry has the step's resolved inputs and the outputs a submit must give "
                    + "(`submitStep`). HTTP workers poll it with `type=automated&run=<task>`; task lists with `assignee=human`. "
                    + "When more exist, the `Link` header holds the next page's URL.",
            responses = @ApiResponse(responseCode = "200", description = "A page of active steps",
                    headers = @io.swagger.v3.oas.annotations.headers.Header(name = "Link",
                            description = "`<url>; rel=\"next\"` when more exist", schema = @Schema(type = "string")),
                    content = @Content(mediaType = "application/json",
                            array = @ArraySchema(schema = @Schema(implementation = InstanceSchemas.PendingStep.class)))))
    @GetMapping("/sop/steps/pending")
    public ResponseEntity<List<Map<String, Object>>> pending(@Parameter(description = "Only steps of this type",
                                                                     schema = @Schema(allowableValues = {"form", "automated", "judgment", "webhook"}))
                                                             @RequestParam(required = false) String type,
                                                             @Parameter(description = "Only steps of this process", example = "review")
                                                             @RequestParam(required = false) String process,
                                                             @Parameter(description = "Only automated steps with this task name", example = "billing.charge")
                                                             @RequestParam(required = false) String run,
                                                             @Parameter(description = "Only steps assigned to",
                                                                     schema = @Schema(allowableValues = {"agent", "human", "worker", "third_party"}))
                                                             @RequestParam(required = false) String assignee,
                                                             @Parameter(description = "Only steps of this instance", example = "01JD6Z3K8Q2W5N7R9T1V3X5Z7B")
                                                             @RequestParam(name = "instance_id", required = false) String instanceId,
                                                             @Parameter(description = "Page size, 1 to 500; default 50", example = "50")
                                                             @RequestParam(required = false) Integer limit,
                                                             @Parameter(description = "The cursor from the previous page's Link header")
                                                             @RequestParam(required = false) String cursor,
                                                             HttpServletRequest request) {
        StepType stepType = type == null ? null : StepType.fromWireName(type).orElseThrow(() ->
                new ApiException(400, "invalid_parameter", "Expected type to be one of " + StepType.wireNames()));
        Assignee who = assignee == null ? null : Arrays.stream(Assignee.values()).filter(a -> a.wireName().equals(assignee)).findFirst()
                .orElseThrow(() -> new ApiException(400, "invalid_parameter", "Expected assignee to be one of agent, human, worker, third_party"));
        Page<PendingStep> page = engine.queries().pendingSteps(scope.workspace(request), new PendingFilter(stepType, process, run, who, instanceId),
                Pagination.cursor(cursor, Pagination.PENDING_CURSOR), Pagination.limit(limit));
        String base = scope.callbackBase(request);
        var answer = Pagination.respond(page.items().stream().map(step -> ApiViews.pending(step, base)).toList(), page.nextCursor(), request);
        // Some partitions were read from a standby copy while their owner was unreachable: the page may be a little behind.
        return page.stale() ? ResponseEntity.ok().headers(answer.getHeaders()).header(Answer.STALE_HEADER, "true").body(answer.getBody()) : answer;
    }
}
