package dev.sopline.gateway.api.doc;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every error code the API answers (interface section 7 and the CONTRACT), what it means, and which operation
 * answers which beyond the ones every operation of its kind shares. The OpenAPI document lists them per response,
 * each with an example, so that a client or an agent can tell what it did wrong from the document alone.
 */
public final class ErrorCatalog {

    /** Code to meaning, in the order the document lists them. */
    public static final Map<String, String> MEANINGS = meanings();

    private static final Map<String, Map<String, List<String>>> BY_OPERATION = Map.ofEntries(
            Map.entry("startInstance", Map.of("422", List.of("invalid_inputs", "idempotency_key_reused"))),
            Map.entry("submitStep", Map.of("422", List.of("invalid_outputs", "invalid_transition", "idempotency_key_reused"))),
            Map.entry("cancelInstance", Map.of("422", List.of("invalid_transition", "idempotency_key_reused"))),
            Map.entry("registerProcess", Map.of("422", List.of("invalid_definition", "invalid_request"))),
            Map.entry("listInstances", Map.of("400", List.of("invalid_parameter"))),
            Map.entry("listPendingSteps", Map.of("400", List.of("invalid_parameter"))),
            Map.entry("getInstanceHistory", Map.of("400", List.of("invalid_parameter"))),
            Map.entry("listTokens", Map.of("400", List.of("invalid_parameter"))),
            Map.entry("heartbeatStep", Map.of("400", List.of("invalid_request"), "422", List.of("invalid_transition"))),
            Map.entry("getMetrics", Map.of("400", List.of("invalid_request"))),
            Map.entry("createToken", Map.of("422", List.of("invalid_inputs", "invalid_request"))),
            Map.entry("createWebhook", Map.of("422", List.of("invalid_webhook_url", "invalid_request"))),
            Map.entry("createWorkspace", Map.of("409", List.of("workspace_exists"), "422", List.of("invalid_inputs"))),
            Map.entry("deleteWorkspace", Map.of("422", List.of("invalid_transition"))),
            Map.entry("resolveCallback", Map.of("409", List.of("callback_already_resolved"), "422", List.of("invalid_outputs"))),
            Map.entry("triggerProcess", triggerErrors()),
            Map.entry("triggerWorkspaceProcess", triggerErrors()));

    private ErrorCatalog() {}

    /** The codes specific to an operation, by status. */
    public static Map<String, List<String>> specificTo(String operationId) {
        return BY_OPERATION.getOrDefault(operationId, Map.of());
    }

    private static Map<String, List<String>> triggerErrors() {
        return Map.of("401", List.of("invalid_signature"), "422", List.of("invalid_inputs", "idempotency_key_reused"),
                "500", List.of("trigger_misconfigured"));
    }

    private static Map<String, String> meanings() {
        Map<String, String> codes = new LinkedHashMap<>();
        codes.put("invalid_request", "The path holds ';', an encoded '/' or '\\', NUL or a dot segment, or the request is malformed");
        codes.put("invalid_payload", "The body is not the JSON (or multipart form) the operation reads");
        codes.put("invalid_parameter", "A query parameter is outside its allowed values (limit 1 to 500, state, type, assignee)");
        codes.put("unauthorized", "No token, or an unknown, revoked or expired one: send X-SOP-Token or Authorization: Bearer");
        codes.put("invalid_signature", "The trigger's HMAC signature header does not match the raw body");
        codes.put("forbidden", "The token's role does not allow this operation (see x-required-role); ask an admin for a wider role");
        codes.put("not_found", "The process, version, instance, step, token, webhook or callback does not exist in this workspace");
        codes.put("request_timeout", "The request body did not arrive within the read timeout (10 s by default)");
        codes.put("callback_already_resolved", "The one-shot callback was used before");
        codes.put("workspace_exists", "The workspace name is taken, by a live or a deleted workspace");
        codes.put("payload_too_large", "The body is over 1 MiB (process files 256 KiB), or the instance's data would pass 256 KiB");
        codes.put("unsupported_media_type", "The body's Content-Type is not one the operation reads: application/json, and "
                + "multipart/form-data only to register a process");
        codes.put("invalid_inputs", "The inputs do not match the process's declared inputs; details name each one");
        codes.put("invalid_outputs", "The outputs do not match the step's declared outputs; details name each one");
        codes.put("invalid_definition", "The process file fails the schema or syntax check; details give field, line and column");
        codes.put("invalid_transition", "The instance is terminal, or the step is not active");
        codes.put("idempotency_key_reused", "The Idempotency-Key was used within 24 h for a different request");
        codes.put("invalid_webhook_url", "The URL is not http(s), or its host resolves to an address deliveries may not go to");
        codes.put("rate_limited", "Too many requests (per token; per address for triggers, callbacks and failed authentications): wait Retry-After seconds");
        codes.put("internal", "The gateway met an unexpected failure");
        codes.put("engine_error", "The engine could not apply the command and skipped it");
        codes.put("trigger_misconfigured", "The environment variable named by trigger.auth.secret_env is unset");
        codes.put("unavailable", "The engine is starting, rebalancing or did not answer in time: retry after Retry-After seconds");
        return java.util.Collections.unmodifiableMap(codes);
    }
}
