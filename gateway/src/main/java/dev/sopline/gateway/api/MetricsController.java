package dev.sopline.gateway.api;

import dev.sopline.engine.query.WorkspaceCounts;
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
public class MetricsController {

    private final EngineAccess engine;
    private final RequestScope scope;

    public MetricsController(EngineAccess engine, RequestScope scope) {
        this.engine = engine;
        this.scope = scope;
    }

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
