package dev.sopline.gateway.api;

import dev.sopline.engine.api.query.WorkspaceCounts;
import dev.sopline.gateway.api.doc.ApiTags;
import dev.sopline.gateway.api.doc.ProcessSchemas;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import dev.sopline.engine.api.view.DurationBins;
import dev.sopline.engine.api.view.WindowBucket;
import dev.sopline.gateway.engine.EngineAccess;
import dev.sopline.gateway.web.ApiException;
import dev.sopline.gateway.web.HttpErrorCodes;
import dev.sopline.schemas.definition.Durations;
import dev.sopline.schemas.validation.Violation;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Workspace counters (CONTRACT section 3), read from the counters each engine replica keeps as its instances change
 * state, and summed: instances by state, steps waiting by type, and escalations currently waiting for a person. With
 * {@code window} (CONTRACT section 9), also what happened in that window, from the replicas' per-minute and per-hour
 * buckets.
 */
@RestController
@Tag(name = ApiTags.METRICS, description = "Counters of the workspace")
public class MetricsController {

    static final Duration SHORTEST_WINDOW = Duration.ofMinutes(1);
    static final Duration LONGEST_WINDOW = Duration.ofDays(30);

    private final EngineAccess engine;
    private final RequestScope scope;

    public MetricsController(EngineAccess engine, RequestScope scope) {
        this.engine = engine;
        this.scope = scope;
    }

    @Operation(operationId = "getMetrics", summary = "Count the workspace's processes, instances and waiting steps",
            description = "Instances by state, active steps by type, and escalated judgments waiting for a person, counted now. "
                    + "With window (a duration from 1m to 30d, such as 15m, 1h or 7d), also what happened in that window: "
                    + "instances started, completed, failed and cancelled, escalations, and the durations of those completed.",
            responses = @ApiResponse(responseCode = "200", description = "The counters",
                    content = @Content(mediaType = "application/json", schema = @Schema(implementation = ProcessSchemas.Metrics.class))))
    @GetMapping("/sop/metrics")
    public Map<String, Object> metrics(HttpServletRequest request, @Parameter(description = "A window from 1m to 30d (s, m, h, d), such as 1h",
            example = "1h") @RequestParam(name = "window", required = false) String window) {
        Optional<Duration> length = window == null ? Optional.empty() : Optional.of(windowLength(window));
        String workspace = scope.workspace(request);
        Instant now = Instant.now();
        WorkspaceCounts counts = engine.queries().counts(workspace);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("processes", engine.queries().processes(workspace).size());
        body.put("instances", counts.instances());
        body.put("steps_pending", counts.stepsPending());
        body.put("escalations", counts.escalations());
        if (length.isPresent()) {
            body.putAll(windowFigures(window, engine.queries().window(workspace, now.minus(length.get()), now)));
        }
        body.put("generated_at", now.toString());
        return body;
    }

    private static Duration windowLength(String window) {
        return Durations.parse(window)
                .filter(length -> length.compareTo(SHORTEST_WINDOW) >= 0 && length.compareTo(LONGEST_WINDOW) <= 0)
                .orElseThrow(() -> new ApiException(400, HttpErrorCodes.INVALID_REQUEST,
                        "Expected window to be a duration from 1m to 30d, such as 15m, 1h or 7d",
                        List.of(Violation.of("window", "invalid_duration", "Expected a duration from 1m to 30d (30s, 15m, 4h, 7d)"))));
    }

    /**
     * The window's figures. "escalations" here counts the escalations that happened in the window, where the one
     * above counts those still waiting; the durations are of the instances completed in the window.
     */
    private static Map<String, Object> windowFigures(String window, WindowBucket figures) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("window", window);
        body.put("started", figures.started());
        body.put("completed", figures.completed());
        body.put("failed", figures.failed());
        body.put("cancelled", figures.cancelled());
        body.put("escalations", figures.escalations());
        Map<String, Object> durations = new LinkedHashMap<>();
        durations.put("p50", DurationBins.percentile(figures.durationBins(), 50, figures.maxDurationMs()));
        durations.put("p95", DurationBins.percentile(figures.durationBins(), 95, figures.maxDurationMs()));
        durations.put("max", figures.maxDurationMs());
        body.put("duration_ms", durations);
        return body;
    }
}
