package dev.sopline.gateway.auth;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A token just made: its stored record and the secret, which exists only in this answer.
 *
 * @param record what is stored (the hash, never the secret)
 * @param secret the token to hand to its owner, once
 */
public record IssuedToken(TokenRecord record, String secret) {

    /** The 201 answer of {@code POST /workspace/tokens}, also the {@code token} of a new workspace. */
    public Map<String, Object> body() {
        Map<String, Object> created = new LinkedHashMap<>();
        created.put("id", record.id());
        created.put("name", record.name());
        created.put("role", record.effectiveRole().wireName());
        created.put("token", secret);
        created.put("created_at", record.createdAt().toString());
        created.put("expires_at", record.expiresAt() == null ? null : record.expiresAt().toString());
        return created;
    }
}
