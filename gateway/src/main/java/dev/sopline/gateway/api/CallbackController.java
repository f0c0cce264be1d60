package dev.sopline.gateway.api;

import dev.sopline.gateway.command.CommandBus;
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
public class CallbackController {

    private static final Pattern ULID = Pattern.compile("[0-9A-HJKMNP-TV-Z]{26}");

    private final EngineAccess engine;
    private final CommandBus commands;

    public CallbackController(EngineAccess engine, CommandBus commands) {
        this.engine = engine;
        this.commands = commands;
    }

    @PostMapping("/sop/webhooks/{callbackId}")
    public ResponseEntity<Object> deliver(@PathVariable String callbackId, @RequestBody(required = false) byte[] body) {
        CallbackOwner owner = (ULID.matcher(callbackId).matches() ? engine.queries().callbackOwner(callbackId) : java.util.Optional.<CallbackOwner>empty())
                .orElseThrow(() -> ProcessController.notFound("Expected a callback id issued by a webhook step, but this one is unknown"));
        Object payload = body == null || body.length == 0 ? Map.of() : JsonBodies.toValue(JsonBodies.parse(body));
        ResolveCallback resolve = new ResolveCallback(InstanceController.newCommandId(), owner.workspace(), owner.instanceId(), callbackId, payload);
        return Replies.toResponse(commands.send(resolve), reply -> reply);
    }
}
