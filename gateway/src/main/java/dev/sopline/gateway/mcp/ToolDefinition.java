package dev.sopline.gateway.mcp;

import io.modelcontextprotocol.spec.McpSchema;
import java.util.function.Function;
import org.springframework.http.HttpMethod;
import org.springframework.http.ResponseEntity;

/**
 * One tool: what the agent sees, the API operation it stands for (whose least role it needs), and the call to that
 * operation's controller.
 *
 * @param tool name, description and argument schema
 * @param method the operation's HTTP method
 * @param route the operation's path, as the OpenAPI document writes it
 * @param call the controller call; its answer becomes the tool's result
 * @param listName for a list operation, the result's field that holds the items (MCP results are objects); else null
 */
record ToolDefinition(McpSchema.Tool tool, HttpMethod method, String route, Function<ToolCall, ResponseEntity<?>> call, String listName) {

    String name() {
        return tool.name();
    }
}
