package dev.sopline.gateway.api;

import dev.sopline.engine.query.Page;
import dev.sopline.engine.query.PendingFilter;
import dev.sopline.gateway.engine.EmbeddedEngine;
import dev.sopline.schemas.definition.StepType;
import dev.sopline.schemas.instance.InstanceState;
import dev.sopline.schemas.instance.InstanceView;
import dev.sopline.schemas.instance.PendingStep;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Workspace counters (CONTRACT section 3), computed from the stores on each call: instances by state, steps
 * waiting by type, and escalations currently waiting for a person.
 */
@RestController
public class MetricsController {

    private static final int PENDING_SCAN_LIMIT = 100_000;

    private final EmbeddedEngine engine;
    private final RequestScope scope;

    public MetricsController(EmbeddedEngine engine, RequestScope scope) {
        this.engine = engine;
        this.scope = scope;
    }

    @GetMapping("/sop/metrics")
    public Map<String, Object> metrics(HttpServletRequest request) {
        String workspace = scope.workspace(request);
        Map<String, Long> instances = new LinkedHashMap<>();
        for (InstanceState state : List.of(InstanceState.RUNNING, InstanceState.WAITING, InstanceState.COMPLETED, InstanceState.FAILED,
                InstanceState.CANCELLED)) {
            instances.put(state.wireName(), 0L);
        }
        for (InstanceView view : engine.queries().scan(workspace, view -> true)) {
            instances.merge(view.state().wireName(), 1L, Long::sum);
        }
        Map<String, Long> pendingByType = new LinkedHashMap<>();
        for (StepType type : StepType.values()) {
            pendingByType.put(type.wireName(), 0L);
        }
        Page<PendingStep> pending = engine.queries().pendingSteps(workspace, PendingFilter.ANY, null, PENDING_SCAN_LIMIT);
        long escalations = 0;
        for (PendingStep step : pending.items()) {
            pendingByType.merge(step.type().wireName(), 1L, Long::sum);
            escalations += step.escalated() ? 1 : 0;
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("processes", engine.queries().processes(workspace).size());
        body.put("instances", instances);
        body.put("steps_pending", pendingByType);
        body.put("escalations", escalations);
        body.put("generated_at", Instant.now().toString());
        return body;
    }
}
