package dev.sopline.gateway.api;

import dev.sopline.gateway.auth.IssuedToken;
import dev.sopline.gateway.auth.Role;
import dev.sopline.gateway.auth.TokenIssuer;
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
import java.util.Arrays;
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

/**
 * Workspace tokens: the secret is shown once, at creation, and stored only as a hash. A new token has a role
 * ({@code operator} unless asked otherwise) and never outlives the token that created it.
 */
@RestController
public class TokenController {

    private static final int MAX_NAME_LENGTH = 200;

    private final TokenRegistry tokens;
    private final TokenIssuer issuer;
    private final RequestScope scope;

    public TokenController(TokenRegistry tokens, TokenIssuer issuer, RequestScope scope) {
        this.tokens = tokens;
        this.issuer = issuer;
        this.scope = scope;
    }

    @PostMapping("/workspace/tokens")
    public ResponseEntity<Map<String, Object>> create(@RequestBody(required = false) byte[] body, HttpServletRequest request) {
        JsonNode json = JsonBodies.object(body);
        JsonNode name = json.get("name");
        if (name == null || !name.isString() || name.asString().isBlank() || name.asString().length() > MAX_NAME_LENGTH) {
            throw invalid("name", ViolationCode.INVALID_TYPE, "Expected 'name' to be a non-empty text of at most " + MAX_NAME_LENGTH + " characters");
        }
        Role role = role(json.get("role"));
        Instant now = Instant.now();
        IssuedToken issued = issuer.issue(scope.workspace(request), name.asString(), role, requestedExpiry(json.get("expires_at"), now),
                scope.token(request), now);
        return ResponseEntity.status(201).body(issued.body());
    }

    @GetMapping("/workspace/tokens")
    public List<Map<String, Object>> list(HttpServletRequest request) {
        return tokens.active(scope.workspace(request), Instant.now()).stream().map(this::listed).toList();
    }

    /** The calling token itself, for any role: what a client or the task inbox may do, and in which workspace. */
    @GetMapping("/sop/token")
    public Map<String, Object> caller(HttpServletRequest request) {
        TokenRecord record = scope.token(request);
        Map<String, Object> entry = listed(record);
        entry.put("workspace", record.workspace());
        return entry;
    }

    @DeleteMapping("/workspace/tokens/{id}")
    public ResponseEntity<Void> revoke(@PathVariable String id, HttpServletRequest request) {
        TokenRecord record = tokens.find(scope.workspace(request), id)
                .filter(found -> found.revokedAt() == null)
                .orElseThrow(() -> new ApiException(404, ErrorCodes.NOT_FOUND, "Expected an active token with id '%s', but there is none".formatted(id)));
        tokens.save(record.revoked(Instant.now()));
        return ResponseEntity.noContent().build();
    }

    private static Role role(JsonNode given) {
        if (given == null || given.isNull()) {
            return Role.DEFAULT;
        }
        List<String> names = Arrays.stream(Role.values()).map(Role::wireName).toList();
        return Role.fromWire(given.isString() ? given.asString() : "")
                .orElseThrow(() -> new ApiException(422, ErrorCodes.INVALID_INPUTS, "Expected 'role' to be one of " + names,
                        List.of(Violation.notInEnum("role", given.asString(given.toString()), names))));
    }

    private static Instant requestedExpiry(JsonNode expires, Instant now) {
        if (expires == null || expires.isNull()) {
            return null;
        }
        Instant expiresAt;
        try {
            expiresAt = Instant.parse(expires.asString());
        } catch (DateTimeParseException e) {
            throw invalid("expires_at", ViolationCode.INVALID_TYPE, "Expected 'expires_at' to be an ISO 8601 UTC timestamp such as 2027-01-31T00:00:00Z");
        }
        if (!expiresAt.isAfter(now)) {
            throw invalid("expires_at", ViolationCode.INVALID_TYPE, "Expected 'expires_at' to be in the future");
        }
        return expiresAt;
    }

    private Map<String, Object> listed(TokenRecord record) {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("id", record.id());
        entry.put("name", record.name());
        entry.put("role", record.effectiveRole().wireName());
        entry.put("created_at", record.createdAt().toString());
        entry.put("expires_at", record.expiresAt() == null ? null : record.expiresAt().toString());
        entry.put("last_used_at", tokens.lastUsedAt(record.id()).map(Instant::toString).orElse(null));
        return entry;
    }

    private static ApiException invalid(String field, String code, String message) {
        return new ApiException(422, "invalid_request", message, List.of(Violation.of(field, code, message)));
    }
}
