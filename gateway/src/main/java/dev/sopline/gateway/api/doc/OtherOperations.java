package dev.sopline.gateway.api.doc;

import java.util.Map;

/**
 * Documentation of the operations whose controllers live outside the API package (event streams, outbound webhooks,
 * workspaces), applied to the generated document by method and path.
 *
 * @param operationId the unique camelCase id
 * @param summary one line
 * @param tag the group it is listed under
 * @param request the schema of the JSON body, or null
 * @param status the success status
 * @param response the schema of the success body, {@code "[X]"} for an array of X, or null for none or a stream
 */
public record OtherOperations(String operationId, String summary, String tag, String request, String status, String response) {

    public static final Map<String, OtherOperations> BY_ROUTE = Map.of(
            "GET /sop/events", new OtherOperations("streamEvents", "Follow every state change in the workspace (server-sent events)",
                    ApiTags.EVENTS, null, "200", null),
            "GET /sop/{name}/{id}/events", new OtherOperations("streamInstanceEvents", "Follow one instance's state changes (server-sent events)",
                    ApiTags.EVENTS, null, "200", null),
            "POST /workspace/webhooks", new OtherOperations("createWebhook", "Subscribe a URL to the workspace's state changes",
                    ApiTags.WEBHOOKS, "WebhookRequest", "201", "Webhook"),
            "GET /workspace/webhooks", new OtherOperations("listWebhooks", "List the workspace's webhook subscriptions",
                    ApiTags.WEBHOOKS, null, "200", "[Webhook]"),
            "DELETE /workspace/webhooks/{id}", new OtherOperations("deleteWebhook", "Remove a webhook subscription",
                    ApiTags.WEBHOOKS, null, "204", null),
            "POST /workspaces", new OtherOperations("createWorkspace", "Create a workspace and its first admin token",
                    ApiTags.WORKSPACES, "WorkspaceRequest", "201", "CreatedWorkspace"),
            "GET /workspaces", new OtherOperations("listWorkspaces", "List the workspaces", ApiTags.WORKSPACES, null, "200", "[Workspace]"),
            "DELETE /workspaces/{name}", new OtherOperations("deleteWorkspace", "Delete a workspace: revoke its tokens, cancel its instances",
                    ApiTags.WORKSPACES, null, "204", null));
}
