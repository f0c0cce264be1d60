package dev.sopline.gateway.mcp;

import dev.sopline.schemas.json.Json;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.Map;

/** Builds a tool from its name, description and the JSON Schema of its arguments, written as JSON. */
final class ToolSchemas {

    /** The optional argument of the writes that a retry can repeat safely. */
    static final String IDEMPOTENCY_KEY_PROPERTY = """
            "idempotency_key": {"type": "string", "minLength": 1, "maxLength": 255,
              "description": "Optional. Repeating a call with the same key within 24 h returns the first answer and changes nothing: use it to retry safely."}""";

    /** What a tool does to the workspace, as the hints MCP clients show before a call. */
    enum Effect {
        /** Reads only: safe to call at any time. */
        READS,
        /** Adds or moves something on (starts, submits, registers). */
        WRITES,
        /** Ends something for good (cancels). */
        ENDS
    }

    private ToolSchemas() {}

    @SuppressWarnings("unchecked")
    static McpSchema.Tool tool(String name, String title, String description, String argumentsSchema, Effect effect) {
        Map<String, Object> schema = Json.mapper().readValue(argumentsSchema, Map.class);
        boolean readOnly = effect == Effect.READS;
        return McpSchema.Tool.builder().name(name).title(title).description(description).inputSchema(schema)
                .annotations(new McpSchema.ToolAnnotations(title, readOnly, effect == Effect.ENDS, readOnly, false, null))
                .build();
    }
}
