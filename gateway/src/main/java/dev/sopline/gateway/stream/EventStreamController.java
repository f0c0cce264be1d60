package dev.sopline.gateway.stream;

import dev.sopline.gateway.api.InstanceAbsence;
import dev.sopline.gateway.api.RequestScope;
import dev.sopline.gateway.engine.EngineAccess;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Duration;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * Server-sent events of state changes: each event is named {@code state_changed} and carries the CloudEvent of
 * {@code sop.events}, so an API client can follow an instance live instead of polling it. A stream lasts up to 30
 * minutes; clients reconnect after that, and it ends sooner when the token that opened it is revoked or expires, or
 * when the client stops reading.
 */
@RestController
public class EventStreamController {

    private static final Duration STREAM_LIFETIME = Duration.ofMinutes(30);

    private final EventStream stream;
    private final EngineAccess engine;
    private final RequestScope scope;

    public EventStreamController(EventStream stream, EngineAccess engine, RequestScope scope) {
        this.stream = stream;
        this.engine = engine;
        this.scope = scope;
    }

    private static final String STREAM_FORMAT = " Each event is named `state_changed`; its `id` is the CloudEvent id and its `data` the "
            + "CloudEvent JSON published on `sop.events` (`type` `sop.instance.state_changed` or `sop.step.state_changed`, "
            + "`data.from`, `data.to` and the instance or step object; a webhook step's `callback_id` only for tokens of role "
            + "`worker` and above). The stream starts with the changes after it opens: "
            + "read the current state first (or again after a reconnect), then apply the events. A stream ends after 30 "
            + "minutes; reconnect then. Clients that cannot hold a stream open poll the same resource instead.";

    /** Every state change of one instance, from now on. */
    @Operation(summary = "Follow one instance's state changes (server-sent events)",
            description = "A live alternative to polling `GET /sop/{name}/{id}`." + STREAM_FORMAT,
            responses = @ApiResponse(responseCode = "200", description = "An open stream of `state_changed` events",
                    content = @Content(mediaType = MediaType.TEXT_EVENT_STREAM_VALUE, schema = @Schema(type = "string"))))
    @GetMapping(path = "/sop/{name}/{id}/events", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    public SseEmitter instance(@PathVariable String name, @PathVariable String id, HttpServletRequest request) {
        String workspace = scope.workspace(request);
        engine.queries().instance(workspace, id).filter(view -> view.process().equals(name))
                .orElseThrow(() -> InstanceAbsence.of(name, id));
        return stream.subscribe(workspace, id, scope.caller(request), scope.mayResolveSteps(request), STREAM_LIFETIME);
    }

    /** Every state change in the workspace, from now on: what a task list needs to stay current. */
    @Operation(summary = "Follow every state change in the workspace (server-sent events)",
            description = "A live alternative to polling `GET /sop/instances` and `GET /sop/steps/pending`: a task list "
                    + "refreshes its pending steps when a step changes state." + STREAM_FORMAT,
            responses = @ApiResponse(responseCode = "200", description = "An open stream of `state_changed` events",
                    content = @Content(mediaType = MediaType.TEXT_EVENT_STREAM_VALUE, schema = @Schema(type = "string"))))
    @GetMapping(path = "/sop/events", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    public SseEmitter workspace(HttpServletRequest request) {
        return stream.subscribe(scope.workspace(request), null, scope.caller(request), scope.mayResolveSteps(request), STREAM_LIFETIME);
    }
}
