package dev.sopline.gateway.api;

import dev.sopline.engine.query.Page;
import dev.sopline.engine.query.PendingFilter;
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
public class PendingStepController {

    private final EngineAccess engine;
    private final RequestScope scope;

    public PendingStepController(EngineAccess engine, RequestScope scope) {
        this.engine = engine;
        this.scope = scope;
    }

    @GetMapping("/sop/steps/pending")
    public ResponseEntity<List<Map<String, Object>>> pending(@RequestParam(required = false) String type,
                                                             @RequestParam(required = false) String process,
                                                             @RequestParam(required = false) String run,
                                                             @RequestParam(required = false) String assignee,
                                                             @RequestParam(required = false) Integer limit,
                                                             @RequestParam(required = false) String cursor,
                                                             HttpServletRequest request) {
        StepType stepType = type == null ? null : StepType.fromWireName(type).orElseThrow(() ->
                new ApiException(400, "invalid_parameter", "Expected type to be one of " + StepType.wireNames()));
        Assignee who = assignee == null ? null : Arrays.stream(Assignee.values()).filter(a -> a.wireName().equals(assignee)).findFirst()
                .orElseThrow(() -> new ApiException(400, "invalid_parameter", "Expected assignee to be one of agent, human, worker, third_party"));
        Page<PendingStep> page = engine.queries().pendingSteps(scope.workspace(request), new PendingFilter(stepType, process, run, who),
                cursor, Pagination.limit(limit));
        String base = scope.baseUrl();
        return Pagination.respond(page.items().stream().map(step -> ApiViews.pending(step, base)).toList(), page.nextCursor(), request);
    }
}
