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

    private ToolSchemas() {}

    @SuppressWarnings("unchecked")
    static McpSchema.Tool tool(String name, String title, String description, String argumentsSchema, boolean readOnly) {
        Map<String, Object> schema = Json.mapper().readValue(argumentsSchema, Map.class);
        return McpSchema.Tool.builder().name(name).title(title).description(description).inputSchema(schema)
                .annotations(new McpSchema.ToolAnnotations(title, readOnly, false, readOnly, false, null))
                .build();
    }
}
