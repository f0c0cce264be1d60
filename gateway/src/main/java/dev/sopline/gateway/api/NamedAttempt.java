package dev.sopline.gateway.api;

import dev.sopline.gateway.web.ApiException;
import tools.jackson.databind.JsonNode;

/**
 * The {@code attempt} a worker's submit or heartbeat names (from the pending feed): the engine then takes it only for
 * that attempt, so a worker whose attempt timed out and was retried cannot resolve or keep alive the next one.
 */
final class NamedAttempt {

    private NamedAttempt() {}

    /** The attempt the body names, or null when it names none. */
    static Integer of(JsonNode body) {
        JsonNode attempt = body.get("attempt");
        if (attempt == null || attempt.isNull()) {
            return null;
        }
        if (!attempt.isIntegralNumber() || !attempt.canConvertToInt() || attempt.asInt() < 1) {
            throw new ApiException(400, "invalid_request", "Expected 'attempt' to be a whole number from 1");
        }
        return attempt.asInt();
    }
}
