package dev.sopline.gateway.api;

import dev.sopline.gateway.command.CommandBus;
import dev.sopline.gateway.api.doc.ApiTags;
import dev.sopline.gateway.api.doc.InstanceSchemas;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import dev.sopline.gateway.engine.EngineAccess;
import dev.sopline.gateway.web.JsonBodies;
import dev.sopline.schemas.command.ResolveCallback;
import dev.sopline.schemas.instance.CallbackOwner;
import java.util.Map;
import java.util.regex.Pattern;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * A third party's call to a webhook step's one-shot URL. No token: the unguessable id is the credential. The engine
 * that owns the instance decides 200, 409 or 404, so two racing calls get one 200.
 */
@RestController
@Tag(name = ApiTags.TRIGGERS)
public class CallbackController {

    private static final Pattern ULID = Pattern.compile("[0-9A-HJKMNP-TV-Z]{26}");
    private static final java.time.Duration OWNER_VISIBLE_WITHIN = java.time.Duration.ofSeconds(3);

    /**
     * Lookups that may wait at once. A waiting lookup holds a request thread for up to {@link #OWNER_VISIBLE_WITHIN};
     * without a bound, calls with made-up ids (no token needed) from a few addresses held a hundred of the server's
     * threads and slowed every other request. Past the bound an id not found at once answers 404 at once: a real
     * callback that meets a flood is refused only if it comes within milliseconds of its step, and third parties retry.
     */
    static final int WAITING_LOOKUPS = 8;

    private final EngineAccess engine;
    private final CommandBus commands;
    private final java.util.concurrent.Semaphore waitingLookups = new java.util.concurrent.Semaphore(WAITING_LOOKUPS);

    public CallbackController(EngineAccess engine, CommandBus commands) {
        this.engine = engine;
        this.commands = commands;
    }

    /**
     * The owner index is a global store fed by committed records, while a step's callback URL can be read a moment
     * before its transaction commits; an id not found at once is looked up again for a short while.
     */
    java.util.Optional<CallbackOwner> findOwner(String callbackId) {
        java.util.Optional<CallbackOwner> owner = engine.queries().callbackOwner(callbackId);
        if (owner.isPresent() || !waitingLookups.tryAcquire()) {
            return owner;
        }
        try {
            long deadline = System.nanoTime() + OWNER_VISIBLE_WITHIN.toNanos();
            while (owner.isEmpty() && System.nanoTime() < deadline) {
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
                owner = engine.queries().callbackOwner(callbackId);
            }
            return owner;
        } finally {
            waitingLookups.release();
        }
    }

    @Operation(operationId = "resolveCallback", summary = "Resolve a webhook step through its one-shot callback URL",
            description = "Called by the third party a webhook step waits for, at the step's `callback_url`. No token: the "
                    + "unguessable id is the credential. The body's fields become the step's declared outputs of the same name. "
                    + "A second call gives 409 `callback_already_resolved`.",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(description = "The third party's result",
                    content = @Content(mediaType = "application/json", schema = @Schema(type = "object", example = "{\"status\": \"verified\"}"))),
            responses = @ApiResponse(responseCode = "200", description = "The step, completed",
                    content = @Content(mediaType = "application/json", schema = @Schema(implementation = InstanceSchemas.Step.class))))
    @PostMapping("/sop/webhooks/{callbackId}")
    public ResponseEntity<Object> deliver(@Parameter(description = "The id at the end of the step's callback_url") @PathVariable String callbackId, @RequestBody(required = false) byte[] body) {
        CallbackOwner owner = (ULID.matcher(callbackId).matches() ? findOwner(callbackId) : java.util.Optional.<CallbackOwner>empty())
                .orElseThrow(() -> ProcessController.notFound("Expected a callback id issued by a webhook step, but this one is unknown"));
        Object payload = body == null || body.length == 0 ? Map.of() : JsonBodies.toValue(JsonBodies.parse(body));
        ResolveCallback resolve = new ResolveCallback(InstanceController.newCommandId(), owner.workspace(), owner.instanceId(), callbackId, payload);
        return Replies.toResponse(commands.send(resolve), reply -> reply);
    }
}
