package dev.sopline.engine.state;

import dev.sopline.schemas.command.CommandReply;
import java.time.Instant;

/**
 * The first answer to an idempotent request, kept for 24 hours.
 *
 * @param requestHash fingerprint of the first request
 * @param reply the answer it got
 * @param expiresAt when the key may be used for another request
 */
public record IdempotencyRecord(String requestHash, CommandReply reply, Instant expiresAt) {

    public static final java.time.Duration RETENTION = java.time.Duration.ofHours(24);
}
