package dev.sopline.gateway.workspace;

import dev.sopline.gateway.api.RequestScope;
import dev.sopline.gateway.auth.BootstrapToken;
import dev.sopline.gateway.auth.IssuedToken;
import dev.sopline.gateway.auth.Role;
import dev.sopline.gateway.auth.TokenIssuer;
import dev.sopline.gateway.web.ApiException;
import dev.sopline.gateway.web.JsonBodies;
import dev.sopline.schemas.command.ErrorCodes;
import dev.sopline.schemas.validation.Violation;
import dev.sopline.schemas.validation.ViolationCode;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Instant;
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
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

/**
 * Workspaces, for the platform administrator only (CONTRACT section 12; who that is: {@link PlatformAdministrator}).
 * A new workspace comes with its first admin token, shown once; from there its admin makes its other tokens.
 * A deleted workspace's name stays taken (409), so an old token, link or webhook never finds a stranger's workspace
 * under the same name; {@code default} cannot be deleted, as it holds the administrator's own tokens.
 */
@RestController
public class WorkspaceController {

    static final String EXISTS = "workspace_exists";
    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9-]{1,62}");
    private static final String ADMIN_ONLY = "Only for the platform administrator: an `admin` token of workspace `default`, such as the "
            + "bootstrap token. Any other token, another workspace's admin included, gets 403 `forbidden`.";

    private final WorkspaceRegistry workspaces;
    private final WorkspaceDeletion deletion;
    private final TokenIssuer issuer;
    private final RequestScope scope;

    public WorkspaceController(WorkspaceRegistry workspaces, WorkspaceDeletion deletion, TokenIssuer issuer, RequestScope scope) {
        this.workspaces = workspaces;
        this.deletion = deletion;
        this.issuer = issuer;
        this.scope = scope;
    }

    @Operation(operationId = "createWorkspace", summary = "Create a workspace and its first admin token",
            description = "Body `{\"name\": \"acme\"}`; a name is 2 to 63 of `a-z`, `0-9` and `-`, not starting with `-`. The answer's "
                    + "`token` is the new workspace's first `admin` token, as `POST /workspace/tokens` answers it: its secret is "
                    + "shown only here. It expires when the calling token does, if that ever expires. " + ADMIN_ONLY,
            responses = {
                @ApiResponse(responseCode = "201", description = "{\"name\", \"created_at\", \"token\": {\"id\", \"name\", \"role\", \"token\", \"created_at\", \"expires_at\"}}"),
                @ApiResponse(responseCode = "409", description = "workspace_exists: the name is taken, by a live or a deleted workspace"),
                @ApiResponse(responseCode = "422", description = "invalid_inputs: the name does not fit; details name `name`")})
    @PostMapping("/workspaces")
    public ResponseEntity<Map<String, Object>> create(@RequestBody(required = false) byte[] body, HttpServletRequest request) {
        JsonNode name = JsonBodies.object(body).get("name");
        if (name == null || !name.isString() || !NAME.matcher(name.asString()).matches()) {
            String message = "Expected 'name' to be 2 to 63 lowercase letters, digits and '-', starting with a letter or digit";
            throw new ApiException(422, ErrorCodes.INVALID_INPUTS, message,
                    List.of(Violation.of("name", name == null ? ViolationCode.REQUIRED : ViolationCode.INVALID_NAME, message)));
        }
        Instant now = Instant.now();
        WorkspaceRecord created = workspaces.create(name.asString(), now).orElseThrow(() -> new ApiException(409, EXISTS,
                "Expected a new workspace name, but '%s' is taken (a deleted workspace's name is not given out again)".formatted(name.asString())));
        IssuedToken token;
        try {
            token = issuer.issue(created.name(), "admin", Role.ADMIN, null, scope.token(request), now);
        } catch (RuntimeException e) {
            // No way in without its first token: the name is given up rather than left as a workspace nobody can enter.
            workspaces.save(created.deleted(now).cleared(now));
            throw e;
        }
        Map<String, Object> answer = view(created);
        answer.put("token", token.body());
        return ResponseEntity.status(201).body(answer);
    }

    @Operation(operationId = "listWorkspaces", summary = "List the workspaces",
            description = "Every workspace that is not deleted, `default` included, by name: `[{\"name\", \"created_at\"}]`. " + ADMIN_ONLY)
    @GetMapping("/workspaces")
    public List<Map<String, Object>> list() {
        return workspaces.live().stream().map(WorkspaceController::view).toList();
    }

    @Operation(operationId = "deleteWorkspace", summary = "Delete a workspace: revoke its tokens, cancel its instances",
            description = "From the answer on, every token of the workspace gives 401 on every gateway; its unfinished instances are "
                    + "cancelled, its processes retired (their schedules stop, and starts of them answer 404) and its webhook subscriptions "
                    + "removed. Should the engine not answer meanwhile (503), the workspace "
                    + "is deleted all the same and a repeat of the call finishes the rest. " + ADMIN_ONLY,
            responses = {
                @ApiResponse(responseCode = "204", description = "Deleted"),
                @ApiResponse(responseCode = "404", description = "not_found: no such workspace, or it is already deleted"),
                @ApiResponse(responseCode = "422", description = "invalid_transition: `default` cannot be deleted")})
    @DeleteMapping("/workspaces/{name}")
    public ResponseEntity<Void> delete(@PathVariable String name) {
        if (BootstrapToken.WORKSPACE.equals(name)) {
            throw new ApiException(422, ErrorCodes.INVALID_TRANSITION,
                    "Expected a workspace that can be deleted, but 'default' holds the platform administrator's tokens");
        }
        WorkspaceRecord workspace = workspaces.find(name)
                .filter(found -> !found.isDeleted() || found.isDeletionUnfinished())
                .orElseThrow(() -> new ApiException(404, ErrorCodes.NOT_FOUND, "Expected a workspace named '%s', but there is none".formatted(name)));
        deletion.delete(workspace);
        return ResponseEntity.noContent().build();
    }

    private static Map<String, Object> view(WorkspaceRecord record) {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("name", record.name());
        entry.put("created_at", record.createdAt().toString());
        return entry;
    }
}
