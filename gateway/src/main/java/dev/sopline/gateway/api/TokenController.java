package dev.sopline.gateway.api;

import dev.sopline.gateway.auth.TokenHashing;
import dev.sopline.gateway.auth.TokenRecord;
import dev.sopline.gateway.auth.TokenRegistry;
import dev.sopline.gateway.web.ApiException;
import dev.sopline.gateway.web.JsonBodies;
import dev.sopline.schemas.command.ErrorCodes;
import dev.sopline.schemas.validation.Violation;
import dev.sopline.schemas.validation.ViolationCode;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

/** Workspace tokens: the secret is shown once, at creation, and stored only as a hash. */
@RestController
public class TokenController {

    private static final int MAX_NAME_LENGTH = 200;

    private final TokenRegistry tokens;
    private final RequestScope scope;

    public TokenController(TokenRegistry tokens, RequestScope scope) {
        this.tokens = tokens;
        this.scope = scope;
    }

    @PostMapping("/workspace/tokens")
    public ResponseEntity<Map<String, Object>> create(@RequestBody(required = false) byte[] body, HttpServletRequest request) {
        JsonNode json = JsonBodies.object(body);
        JsonNode name = json.get("name");
        if (name == null || !name.isString() || name.asString().isBlank() || name.asString().length() > MAX_NAME_LENGTH) {
            throw invalid("name", "Expected 'name' to be a non-empty text of at most " + MAX_NAME_LENGTH + " characters");
        }
        Instant now = Instant.now();
        Instant expiresAt = null;
        JsonNode expires = json.get("expires_at");
        if (expires != null && !expires.isNull()) {
            try {
                expiresAt = Instant.parse(expires.asString());
            } catch (DateTimeParseException e) {
                throw invalid("expires_at", "Expected 'expires_at' to be an ISO 8601 UTC timestamp such as 2027-01-31T00:00:00Z");
            }
            if (!expiresAt.isAfter(now)) {
                throw invalid("expires_at", "Expected 'expires_at' to be in the future");
            }
        }
        String secret = TokenHashing.newSecret();
        TokenRecord record = new TokenRecord("tok_" + com.github.f4b6a3.ulid.UlidCreator.getMonotonicUlid().toString().toLowerCase(java.util.Locale.ROOT),
                scope.workspace(request), name.asString(), TokenHashing.hashHex(secret), now, expiresAt, null);
        tokens.save(record);
        Map<String, Object> created = new LinkedHashMap<>();
        created.put("id", record.id());
        created.put("name", record.name());
        created.put("token", secret);
        created.put("created_at", record.createdAt().toString());
        created.put("expires_at", expiresAt == null ? null : expiresAt.toString());
        return ResponseEntity.status(201).body(created);
    }

    @GetMapping("/workspace/tokens")
    public List<Map<String, Object>> list(HttpServletRequest request) {
        return tokens.active(scope.workspace(request), Instant.now()).stream().map(this::listed).toList();
    }

    @DeleteMapping("/workspace/tokens/{id}")
    public ResponseEntity<Void> revoke(@PathVariable String id, HttpServletRequest request) {
        TokenRecord record = tokens.find(scope.workspace(request), id)
                .filter(found -> found.revokedAt() == null)
                .orElseThrow(() -> new ApiException(404, ErrorCodes.NOT_FOUND, "Expected an active token with id '%s', but there is none".formatted(id)));
        tokens.save(record.revoked(Instant.now()));
        return ResponseEntity.noContent().build();
    }

    private Map<String, Object> listed(TokenRecord record) {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("id", record.id());
        entry.put("name", record.name());
        entry.put("created_at", record.createdAt().toString());
        entry.put("expires_at", record.expiresAt() == null ? null : record.expiresAt().toString());
        entry.put("last_used_at", tokens.lastUsedAt(record.id()).map(Instant::toString).orElse(null));
        return entry;
    }

    private static ApiException invalid(String field, String message) {
        return new ApiException(422, "invalid_request", message, List.of(Violation.of(field, ViolationCode.INVALID_TYPE, message)));
    }
}
