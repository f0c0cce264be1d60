package dev.sopline.gateway.mcp;

import dev.sopline.gateway.web.HttpErrorCodes;
import dev.sopline.schemas.command.ErrorCodes;
import dev.sopline.schemas.validation.Violation;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A refused call as an agent can act on it: a tool result with {@code isError: true} whose text gives the error code,
 * what was wrong (the API's message and details) and what to do next, and the same as structured content.
 */
final class ToolErrors {

    /** A tool argument missing or of the wrong type: the tool's input schema says what it takes. */
    static final String INVALID_ARGUMENTS = "invalid_arguments";

    private static final Map<String, String> NEXT = Map.ofEntries(
            Map.entry(INVALID_ARGUMENTS, "Call the tool again with the arguments its input schema asks for."),
            Map.entry(ErrorCodes.INVALID_INPUTS, "Call get_process to see the required inputs (names, types, enum values), then call "
                    + "start_instance again with inputs that match them."),
            Map.entry(ErrorCodes.INVALID_OUTPUTS, "Call list_pending_steps to see the outputs this step expects (names, types, enum "
                    + "values), then call submit_step again with exactly those."),
            Map.entry(ErrorCodes.INVALID_TRANSITION, "Call get_instance to see the current state of the instance and its steps: only an "
                    + "active step can be submitted, and only a running or waiting instance cancelled."),
            Map.entry(ErrorCodes.INVALID_DEFINITION, "Fix the process file where the details say (field, line, column) and call "
                    + "register_process again; changed content needs a new version number."),
            Map.entry(ErrorCodes.NOT_FOUND, "Call list_processes for the published process names, or list_instances and "
                    + "list_pending_steps for instance and step ids, then try again with one of them."),
            Map.entry(HttpErrorCodes.FORBIDDEN, "This token cannot do this; ask a workspace admin for a token with a wider role and "
                    + "connect with it, or use only the tools this token's role allows."),
            Map.entry(ErrorCodes.IDEMPOTENCY_KEY_REUSED, "Use a new idempotency_key for a different request; reuse a key only to "
                    + "retry the very same call."),
            Map.entry(ErrorCodes.PAYLOAD_TOO_LARGE, "Send less data: process files up to 256 KiB, an instance's data up to 256 KiB."),
            Map.entry(ErrorCodes.RATE_LIMITED, "Wait a few seconds, then call the tool again."),
            Map.entry(ErrorCodes.UNAVAILABLE, "The engine is starting or busy: wait a second, then call the tool again."),
            Map.entry("invalid_parameter", "Call the tool again with values its input schema allows (see the enums and limits)."));
    private static final String OTHERWISE = "Check the arguments against the tool's input schema and try again; if the error "
            + "persists, report it to the platform's operators.";

    private ToolErrors() {}

    static CallToolResult result(String code, String message, List<Violation> details) {
        String next = NEXT.getOrDefault(code, OTHERWISE);
        StringBuilder text = new StringBuilder("Error ").append(code).append(": ").append(message == null ? "" : message);
        if (details != null && !details.isEmpty()) {
            text.append("\nDetails:");
            details.forEach(detail -> text.append("\n- ").append(detail.field()).append(" (").append(detail.code()).append(')')
                    .append(detail.message() == null ? "" : ": " + detail.message()));
        }
        text.append("\nWhat to do next: ").append(next);
        Map<String, Object> structured = new LinkedHashMap<>();
        structured.put("error", code);
        structured.put("message", message);
        if (details != null && !details.isEmpty()) {
            structured.put("details", details);
        }
        structured.put("next", next);
        return CallToolResult.builder().isError(true).addTextContent(text.toString()).structuredContent(structured).build();
    }
}
