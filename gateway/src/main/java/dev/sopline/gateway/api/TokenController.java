package dev.sopline.gateway.api;

import dev.sopline.gateway.auth.IssuedToken;
import dev.sopline.gateway.api.doc.AccessSchemas;
import dev.sopline.gateway.api.doc.ApiTags;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import dev.sopline.gateway.auth.Role;
import dev.sopline.gateway.auth.TokenIssuer;
import dev.sopline.gateway.auth.TokenRecord;
import dev.sopline.gateway.auth.TokenRegistry;
import dev.sopline.gateway.web.ApiException;
import dev.sopline.gateway.web.JsonBodies;
import dev.sopline.gateway.workspace.WorkspaceLocks;
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
import java.util.regex.Pattern;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

/**
 * Workspace tokens: the secret is shown once, at creation, and stored only as a hash. A new token has a role
 * ({@code operator} unless asked otherwise) and never outlives the token that created it.
 */
@RestController
@Tag(name = ApiTags.TOKENS, description = "The workspace's tokens and their roles")
public class TokenController {

    private static final int MAX_NAME_LENGTH = 200;
    /**
     * Active tokens of one workspace; revoked and expired ones do not count. Every replica holds every token in
     * memory, so a script that makes tokens in a loop is stopped here rather than by the heap.
     */
    static final int MAX_ACTIVE_PER_WORKSPACE = 1000;
    /**
     * Every token record of one workspace, those revoked or expired included until they are forgotten (a day after
     * they end): tokens made to expire at once, or made and revoked in a loop, are held as long.
     */
    static final int MAX_HELD_PER_WORKSPACE = 5000;
    /** Token ids: {@code tok_} and a ULID, or a bootstrap token's 20 hex digits. */
    private static final Pattern ID = Pattern.compile("tok_[0-9a-z]{20,26}");

    private final TokenRegistry tokens;
    private final TokenIssuer issuer;
    private final RequestScope scope;
    private final WorkspaceLocks locks;

    public TokenController(TokenRegistry tokens, TokenIssuer issuer, RequestScope scope, WorkspaceLocks locks) {
        this.tokens = tokens;
        this.issuer = issuer;
        this.scope = scope;
        this.locks = locks;
    }

    @Operation(operationId = "createToken", summary = "Create a token of the workspace",
            description = "The answer's `token` is the secret, shown only here and stored only as a hash. Role `operator` unless "
                    + "asked otherwise; a token never outlives the token that created it.",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true,
                    content = @Content(mediaType = "application/json", schema = @Schema(implementation = AccessSchemas.TokenRequest.class))),
            responses = @ApiResponse(responseCode = "201", description = "Created",
                    content = @Content(mediaType = "application/json", schema = @Schema(implementation = AccessSchemas.CreatedToken.class))))
    @PostMapping("/workspace/tokens")
    public ResponseEntity<Map<String, Object>> create(@RequestBody(required = false) byte[] body, HttpServletRequest request) {
        JsonNode json = JsonBodies.object(body);
        JsonNode name = json.get("name");
        if (name == null || !name.isString() || name.asString().isBlank() || name.asString().length() > MAX_NAME_LENGTH) {
            throw invalid("name", ViolationCode.INVALID_TYPE, "Expected 'name' to be a non-empty text of at most " + MAX_NAME_LENGTH + " characters");
        }
        Role role = role(json.get("role"));
        Instant now = Instant.now();
        Instant expiry = requestedExpiry(json.get("expires_at"), now);
        String workspace = scope.workspace(request);
        IssuedToken issued = locks.exclusively(workspace, () -> {
            if (tokens.active(workspace, now).size() >= MAX_ACTIVE_PER_WORKSPACE) {
                throw limitReached("Expected at most " + MAX_ACTIVE_PER_WORKSPACE + " active tokens in a workspace; revoke one first");
            }
            if (tokens.held(workspace) >= MAX_HELD_PER_WORKSPACE) {
                throw limitReached("Expected at most " + MAX_HELD_PER_WORKSPACE + " tokens in a workspace, counting those revoked or "
                        + "expired in the last day; they are forgotten a day after they end");
            }
            return issuer.issue(workspace, name.asString(), role, expiry, scope.token(request), now);
        });
        return ResponseEntity.status(201).body(issued.body());
    }

    @Operation(operationId = "listTokens", summary = "List the workspace's active tokens",
            description = "Every token not revoked or expired, never a secret, in the order of their ids. When more exist, the `Link` header "
                    + "holds the next page's URL (`rel=\"next\"`, with its `cursor`).",
            responses = @ApiResponse(responseCode = "200", description = "The tokens",
                    content = @Content(mediaType = "application/json", array = @ArraySchema(schema = @Schema(implementation = AccessSchemas.Token.class)))))
    @GetMapping("/workspace/tokens")
    public ResponseEntity<List<Map<String, Object>>> list(@Parameter(description = "Page size, 1 to 500; default 50", example = "50")
                                                          @RequestParam(required = false) Integer limit,
                                                          @Parameter(description = "The cursor from the previous page's Link header")
                                                          @RequestParam(required = false) String cursor,
                                                          HttpServletRequest request) {
        int pageSize = Pagination.limit(limit);
        String after = Pagination.cursor(cursor, ID);
        List<TokenRecord> page = tokens.active(scope.workspace(request), Instant.now()).stream()
                .filter(record -> after == null || record.id().compareTo(after) > 0)
                .limit(pageSize + 1L)
                .toList();
        String next = page.size() > pageSize ? page.get(pageSize - 1).id() : null;
        return Pagination.respond(page.stream().limit(pageSize).map(this::listed).toList(), next, request);
    }

    /** The calling token itself, for any role: what a client or the task inbox may do, and in which workspace. */
    @Operation(operationId = "getCurrentToken", summary = "Read the calling token: its role and workspace",
            description = "What the calling token may do, and in which workspace; for any role.",
            responses = @ApiResponse(responseCode = "200", description = "The calling token",
                    content = @Content(mediaType = "application/json", schema = @Schema(implementation = AccessSchemas.CallerToken.class))))
    @GetMapping("/sop/token")
    public Map<String, Object> caller(HttpServletRequest request) {
        TokenRecord record = scope.token(request);
        Map<String, Object> entry = listed(record);
        entry.put("workspace", record.workspace());
        return entry;
    }

    @Operation(operationId = "revokeToken", summary = "Revoke a token",
            description = "Every gateway refuses the token within a second, and its open event streams close.",
            responses = @ApiResponse(responseCode = "204", description = "Revoked"))
    @DeleteMapping("/workspace/tokens/{id}")
    public ResponseEntity<Void> revoke(@Parameter(description = "The token's id") @PathVariable String id, HttpServletRequest request) {
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
            // Not a string (an object, a number) reads as no timestamp; a year past 9999 could not be stored.
            expiresAt = Instant.parse(expires.isString() ? expires.asString() : "");
            if (expiresAt.isAfter(Instant.parse("9999-12-31T23:59:59Z"))) {
                throw new DateTimeParseException("past 9999", expires.asString(), 0);
            }
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

    private static ApiException limitReached(String message) {
        return new ApiException(422, "invalid_request", message, List.of(Violation.of("workspace", ViolationCode.LIMIT_REACHED, message)));
    }

    private static ApiException invalid(String field, String code, String message) {
        return new ApiException(422, "invalid_request", message, List.of(Violation.of(field, code, message)));
    }
}
