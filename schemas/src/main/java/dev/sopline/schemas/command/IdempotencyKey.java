package dev.sopline.schemas.command;

/**
 * An {@code Idempotency-Key} as the engine keeps it.
 *
 * @param scope workspace, caller (token id, or the trigger) and key, so keys of different callers never meet
 * @param requestHash fingerprint of the request (method, path and body): the same key with another request is refused
 */
public record IdempotencyKey(String scope, String requestHash) {}
