package dev.sopline.gateway.api.doc;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.media.Schema.RequiredMode;
import java.util.List;

/** Tokens, outbound webhook subscriptions and workspaces: who may call, and who is told. */
public final class AccessSchemas {


    private AccessSchemas() {}

    @Schema(name = "TokenRequest", description = "A new token of the caller's workspace.")
    public record TokenRequest(
            @Schema(requiredMode = RequiredMode.REQUIRED, maxLength = 200, example = "billing-worker") String name,
            @Schema(allowableValues = {"viewer", "worker", "operator", "admin"}, description = "Default `operator`", example = "worker") String role,
            @JsonProperty("expires_at") @Schema(format = "date-time", description = "Capped to the calling token's expiry",
                    example = "2027-01-31T00:00:00Z") String expiresAt) {}

    @Schema(name = "CreatedToken", description = "A new token; `token`, the secret, is shown only in this answer.")
    public record CreatedToken(
            @Schema(requiredMode = RequiredMode.REQUIRED, example = "tok_01jd3m7zk8q2w5x0s9v4r6t1yb") String id,
            @Schema(requiredMode = RequiredMode.REQUIRED, example = "billing-worker") String name,
            @Schema(requiredMode = RequiredMode.REQUIRED, allowableValues = {"viewer", "worker", "operator", "admin"}, example = "worker") String role,
            @Schema(requiredMode = RequiredMode.REQUIRED, description = "The secret: send it as `X-SOP-Token` or `Authorization: Bearer`",
                    example = "sop_3kX9...") String token,
            @JsonProperty("created_at") @Schema(requiredMode = RequiredMode.REQUIRED, format = "date-time", example = InstanceSchemas.TIME) String createdAt,
            @JsonProperty("expires_at") @Schema(format = "date-time") String expiresAt) {}

    @Schema(name = "Token", description = "A token of the workspace, never its secret.")
    public record Token(
            @Schema(requiredMode = RequiredMode.REQUIRED, example = "tok_01jd3m7zk8q2w5x0s9v4r6t1yb") String id,
            @Schema(requiredMode = RequiredMode.REQUIRED, example = "billing-worker") String name,
            @Schema(requiredMode = RequiredMode.REQUIRED, allowableValues = {"viewer", "worker", "operator", "admin"}, example = "worker") String role,
            @JsonProperty("created_at") @Schema(requiredMode = RequiredMode.REQUIRED, format = "date-time", example = InstanceSchemas.TIME) String createdAt,
            @JsonProperty("expires_at") @Schema(format = "date-time") String expiresAt,
            @JsonProperty("last_used_at") @Schema(format = "date-time") String lastUsedAt) {}

    @Schema(name = "CallerToken", description = "The calling token: what it may do, and in which workspace.")
    public record CallerToken(
            @Schema(requiredMode = RequiredMode.REQUIRED, example = "tok_01jd3m7zk8q2w5x0s9v4r6t1yb") String id,
            @Schema(requiredMode = RequiredMode.REQUIRED, example = "billing-worker") String name,
            @Schema(requiredMode = RequiredMode.REQUIRED, allowableValues = {"viewer", "worker", "operator", "admin"}, example = "worker") String role,
            @JsonProperty("created_at") @Schema(requiredMode = RequiredMode.REQUIRED, format = "date-time", example = InstanceSchemas.TIME) String createdAt,
            @JsonProperty("expires_at") @Schema(format = "date-time") String expiresAt,
            @JsonProperty("last_used_at") @Schema(format = "date-time") String lastUsedAt,
            @Schema(requiredMode = RequiredMode.REQUIRED, example = "default") String workspace) {}

    @Schema(name = "WebhookRequest", description = "A subscription to the workspace's state changes.")
    public record WebhookRequest(
            @Schema(requiredMode = RequiredMode.REQUIRED, example = "https://hooks.example.com/sopline") String url,
            @Schema(description = "The one event kind there is", example = "[\"state_changed\"]") List<String> events,
            @Schema(minLength = 16, description = "The HMAC key of `X-SOP-Signature-256`; generated when not given") String secret) {}

    @Schema(name = "Webhook", description = "A subscription; `secret` only in the answer that created it.")
    public record Webhook(
            @Schema(requiredMode = RequiredMode.REQUIRED, example = "whk_01jd3m7zk8q2w5x0s9v4r6t1yb") String id,
            @Schema(requiredMode = RequiredMode.REQUIRED, example = "https://hooks.example.com/sopline") String url,
            @Schema(requiredMode = RequiredMode.REQUIRED, example = "[\"state_changed\"]") List<String> events,
            @JsonProperty("created_at") @Schema(requiredMode = RequiredMode.REQUIRED, format = "date-time", example = InstanceSchemas.TIME) String createdAt,
            @Schema(description = "Only when created") String secret) {}

    @Schema(name = "WorkspaceRequest", description = "A new workspace.")
    public record WorkspaceRequest(
            @Schema(requiredMode = RequiredMode.REQUIRED, pattern = "^[a-z0-9][a-z0-9-]{1,62}$", example = "acme") String name) {}

    @Schema(name = "Workspace", description = "A workspace.")
    public record Workspace(
            @Schema(requiredMode = RequiredMode.REQUIRED, example = "acme") String name,
            @JsonProperty("created_at") @Schema(requiredMode = RequiredMode.REQUIRED, format = "date-time", example = InstanceSchemas.TIME) String createdAt) {}

    @Schema(name = "CreatedWorkspace", description = "A new workspace and its first admin token, whose secret is shown only here.")
    public record CreatedWorkspace(
            @Schema(requiredMode = RequiredMode.REQUIRED, example = "acme") String name,
            @JsonProperty("created_at") @Schema(requiredMode = RequiredMode.REQUIRED, format = "date-time", example = InstanceSchemas.TIME) String createdAt,
            @Schema(requiredMode = RequiredMode.REQUIRED) CreatedToken token) {}

}
