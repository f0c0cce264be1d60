package dev.sopline.schemas.command;

/** The error codes of the API (interface section 7 and CONTRACT), shared by the engine and the gateway. */
public final class ErrorCodes {

    public static final String INVALID_PAYLOAD = "invalid_payload";
    public static final String UNAUTHORIZED = "unauthorized";
    public static final String INVALID_SIGNATURE = "invalid_signature";
    public static final String NOT_FOUND = "not_found";
    public static final String CALLBACK_ALREADY_RESOLVED = "callback_already_resolved";
    public static final String INVALID_INPUTS = "invalid_inputs";
    public static final String INVALID_OUTPUTS = "invalid_outputs";
    public static final String INVALID_DEFINITION = "invalid_definition";
    public static final String INVALID_TRANSITION = "invalid_transition";
    public static final String IDEMPOTENCY_KEY_REUSED = "idempotency_key_reused";
    public static final String RATE_LIMITED = "rate_limited";
    public static final String PAYLOAD_TOO_LARGE = "payload_too_large";
    public static final String TRIGGER_MISCONFIGURED = "trigger_misconfigured";
    public static final String UNAVAILABLE = "unavailable";
    /** The engine could not apply a command (a defect, not the request's fault); the command was skipped. */
    public static final String ENGINE_ERROR = "engine_error";

    private ErrorCodes() {}
}
