package dev.sopline.gateway.api;

import dev.sopline.engine.query.WorkspaceCounts;
import dev.sopline.gateway.api.doc.ApiTags;
import dev.sopline.gateway.api.doc.ProcessSchemas;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import dev.sopline.gateway.engine.EngineAccess;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Workspace counters (CONTRACT section 3), counted by each engine replica over its own partitions on each call and
 * summed: instances by state, steps waiting by type, and escalations currently waiting for a person.
 */
@RestController
@Tag(name = ApiTags.METRICS, description = "Counters of the workspace")
public class MetricsController {

    private final EngineAccess engine;
    private final RequestScope scope;

    public MetricsController(EngineAccess engine, RequestScope scope) {
        this.engine = engine;
        this.scope = scope;
    }

    @Operation(operationId = "getMetrics", summary = "Count the workspace's processes, instances and waiting steps",
            description = "Instances by state, active steps by type, and escalated judgments waiting for a person, counted now.",
            responses = @ApiResponse(responseCode = "200", description = "The counters",
                    content = @Content(mediaType = "application/json", schema = @Schema(implementation = ProcessSchemas.Metrics.class))))
    @GetMapping("/sop/metrics")
    public Map<String, Object> metrics(HttpServletRequest request) {
        String workspace = scope.workspace(request);
        WorkspaceCounts counts = engine.queries().counts(workspace);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("processes", engine.queries().processes(workspace).size());
        body.put("instances", counts.instances());
        body.put("steps_pending", counts.stepsPending());
        body.put("escalations", counts.escalations());
        body.put("generated_at", Instant.now().toString());
        return body;
    }
}
