package dev.sopline.gateway.api;

import com.github.f4b6a3.ulid.UlidCreator;
import dev.sopline.gateway.api.doc.ApiTags;
import dev.sopline.gateway.api.doc.InstanceSchemas;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import dev.sopline.gateway.auth.BootstrapToken;
import dev.sopline.gateway.auth.SignatureVerifier;
import dev.sopline.gateway.auth.TriggerSecrets;
import dev.sopline.gateway.command.CommandBus;
import dev.sopline.gateway.command.IdempotencyKeys;
import dev.sopline.schemas.command.IdempotencyKey;
import java.util.Optional;
import dev.sopline.gateway.engine.EngineAccess;
import dev.sopline.gateway.web.ApiException;
import dev.sopline.gateway.web.JsonBodies;
import dev.sopline.schemas.command.ErrorCodes;
import dev.sopline.schemas.command.StartInstance;
import dev.sopline.schemas.definition.InputDeclaration;
import dev.sopline.schemas.definition.ProcessDefinition;
import dev.sopline.schemas.definition.TriggerAuth;
import dev.sopline.schemas.definition.TriggerType;
import jakarta.servlet.http.HttpServletRequest;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

/**
 * Signed inbound calls that start an instance of a process declaring {@code trigger.type: webhook}. The raw body is
 * checked against the HMAC named by the definition before it is parsed; declared inputs are taken from payload
 * fields of the same name, and the whole payload is {@code trigger.payload}.
 */
@RestController
@Tag(name = ApiTags.TRIGGERS, description = "Signed inbound calls that start instances; no token")
public class TriggerController {

    private static final String SIGNED = "Starts the latest version of a process that declares `trigger.type: webhook`. No token: the "
            + "raw body must carry the HMAC signature the process's `trigger.auth` names (by default `X-Hub-Signature-256: "
            + "sha256=<hex>`). Declared inputs are taken from payload fields of the same name; the whole payload is "
            + "`trigger.payload`. A provider's delivery header or an `Idempotency-Key` makes a redelivery answer as the first.";

    private final EngineAccess engine;
    private final CommandBus commands;
    private final TriggerSecrets secrets;
    private final IdempotencyKeys idempotency;

    public TriggerController(EngineAccess engine, CommandBus commands, TriggerSecrets secrets, IdempotencyKeys idempotency) {
        this.engine = engine;
        this.commands = commands;
        this.secrets = secrets;
        this.idempotency = idempotency;
    }

    @Operation(operationId = "triggerProcess", summary = "Start a process of workspace `default` from a signed webhook",
            description = SIGNED,
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true, description = "The provider's payload",
                    content = @Content(mediaType = "application/json", schema = @Schema(type = "object", example = "{\"customer\": \"acme\"}"))),
            responses = @ApiResponse(responseCode = "201", description = "Started",
                    content = @Content(mediaType = "application/json", schema = @Schema(implementation = InstanceSchemas.TriggeredInstance.class))))
    @PostMapping("/sop/triggers/{process}")
    public ResponseEntity<Object> trigger(@Parameter(description = "The process name", example = "onboarding") @PathVariable String process, @RequestBody(required = false) byte[] body, HttpServletRequest request) {
        return start(BootstrapToken.WORKSPACE, process, body, request);
    }

    @Operation(operationId = "triggerWorkspaceProcess", summary = "Start a process of a named workspace from a signed webhook",
            description = SIGNED,
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true, description = "The provider's payload",
                    content = @Content(mediaType = "application/json", schema = @Schema(type = "object", example = "{\"customer\": \"acme\"}"))),
            responses = @ApiResponse(responseCode = "201", description = "Started",
                    content = @Content(mediaType = "application/json", schema = @Schema(implementation = InstanceSchemas.TriggeredInstance.class))))
    @PostMapping("/sop/triggers/{workspace}/{process}")
    public ResponseEntity<Object> trigger(@Parameter(description = "The workspace", example = "acme") @PathVariable String workspace,
                                          @Parameter(description = "The process name", example = "onboarding") @PathVariable String process,
                                          @RequestBody(required = false) byte[] body, HttpServletRequest request) {
        return start(workspace, process, body, request);
    }

    /** The key of a body, for processes that take each body once ({@code trigger.auth.dedupe_body}). */
    private static String bodyKey(byte[] raw) {
        try {
            return "body-sha256:" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(raw));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("Expected the JVM to provide SHA-256", e);
        }
    }

    private ResponseEntity<Object> start(String workspace, String process, byte[] body, HttpServletRequest request) {
        ProcessDefinition definition = engine.queries().latestVersion(workspace, process)
                .map(latest -> latest.definition())
                .filter(found -> found.trigger().type() == TriggerType.WEBHOOK)
                .orElseThrow(() -> ProcessController.notFound(
                        "Expected a published process '%s' with a webhook trigger, but there is none".formatted(process)));
        TriggerAuth auth = definition.trigger().auth();
        String secret = secrets.secret(auth.secretEnv()).orElse(null);
        if (secret == null) {
            // The variable is not named: the caller holds no token, and the process's owners can read it in its file.
            throw new ApiException(500, ErrorCodes.TRIGGER_MISCONFIGURED,
                    "Expected the environment variable the process names in trigger.auth.secret_env to hold the trigger's secret, but it is not set");
        }
        byte[] raw = body == null ? new byte[0] : body;
        if (!SignatureVerifier.verify(auth, secret, raw, request.getHeader(auth.header()))) {
            throw new ApiException(401, ErrorCodes.INVALID_SIGNATURE, "Expected a valid signature in the " + auth.header() + " header");
        }
        JsonNode payload = JsonBodies.object(raw);
        Map<String, Object> payloadMap = JsonBodies.toMap(payload);
        Map<String, Object> inputs = new LinkedHashMap<>();
        for (InputDeclaration input : definition.inputs()) {
            if (payloadMap.containsKey(input.name())) {
                inputs.put(input.name(), payloadMap.get(input.name()));
            }
        }
        // Providers redeliver: the body itself where the process says so, else its delivery header, or an
        // Idempotency-Key, makes a redelivery answer as the first.
        String deliveryId = auth.deliveryHeader() == null ? null : request.getHeader(auth.deliveryHeader());
        // The delivery header first, where the process names one: an Idempotency-Key is not signed, and preferring it let
        // anyone who replays a signed delivery add a fresh key and start another instance with it.
        String keyValue = auth.dedupesBody() ? bodyKey(raw) : deliveryId != null ? deliveryId : request.getHeader(IdempotencyKeys.HEADER);
        Optional<IdempotencyKey> key = idempotency.of(keyValue, request, workspace, "trigger:" + process, raw);
        String instanceId = key.map(found -> commands.instanceIdOnPartitionOf(found.scope())).orElseGet(() -> UlidCreator.getMonotonicUlid().toString());
        StartInstance start = new StartInstance(InstanceController.newCommandId(), workspace, instanceId, process, inputs, payloadMap,
                StartInstance.TRIGGER, definition.version());
        return Replies.toResponse(commands.send(IdempotencyKeys.wrap(key, start)), reply -> {
            if (reply instanceof Map<?, ?> map) {
                Map<String, Object> shaped = new LinkedHashMap<>();
                shaped.put("id", map.get("id"));
                shaped.put("process", map.get("process"));
                shaped.put("state", map.get("state"));
                return shaped;
            }
            return reply;
        });
    }
}
