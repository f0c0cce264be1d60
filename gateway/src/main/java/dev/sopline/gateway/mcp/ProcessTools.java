package dev.sopline.gateway.mcp;

import dev.sopline.gateway.api.ProcessController;
import dev.sopline.gateway.web.ApiException;
import dev.sopline.schemas.command.ErrorCodes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import dev.sopline.gateway.mcp.ToolSchemas.Effect;
import org.springframework.http.HttpMethod;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Component;

/** Discovering and registering processes. */
@Component
class ProcessTools implements ToolSet {

    /** The process-file limit the multipart upload has over HTTP (spring.servlet.multipart.max-file-size). */
    static final int MAX_FILE_BYTES = 256 * 1024;

    private final ProcessController processes;

    ProcessTools(ProcessController processes) {
        this.processes = processes;
    }

    @Override
    public List<ToolDefinition> tools() {
        return List.of(
                new ToolDefinition(ToolSchemas.tool("list_processes", "List processes",
                        "List the published processes of the workspace (latest version of each: name, version, description, owner). "
                                + "Use it first to find which process to start.",
                        """
                        {"type": "object", "properties": {}, "additionalProperties": false}""", Effect.READS),
                        HttpMethod.GET, "/sop", call -> ResponseEntity.ok(processes.list(call.asOperation("GET", "/sop"))), "processes"),
                new ToolDefinition(ToolSchemas.tool("get_process", "Read a process",
                        "Read a process's definition: its declared inputs (what start_instance needs: names, types, required, enum "
                                + "values), its outputs and its steps in order. Use it before start_instance.",
                        """
                        {"type": "object", "required": ["process"], "additionalProperties": false, "properties": {
                          "process": {"type": "string", "description": "The process name, from list_processes"},
                          "version": {"type": "string", "description": "A published version; the latest when absent"}}}""", Effect.READS),
                        HttpMethod.GET, "/sop/{name}/schema", call -> {
                            String name = call.text("process");
                            return ResponseEntity.ok(processes.schema(name, call.optionalText("version"),
                                    call.asOperation("GET", "/sop/" + name + "/schema")));
                        }, null),
                new ToolDefinition(ToolSchemas.tool("register_process", "Register a process",
                        "Register (publish) a process from its YAML file text. Answers the name and version published. Registering "
                                + "the same name and version again with identical content is accepted; changed content needs a new version.",
                        """
                        {"type": "object", "required": ["yaml"], "additionalProperties": false, "properties": {
                          "yaml": {"type": "string", "description": "The whole process file, YAML (engine: \\"0.1\\" or \\"0.2\\"), at most 256 KiB"}}}""",
                        Effect.WRITES),
                        HttpMethod.POST, "/sop/processes/register", call -> register(call.text("yaml"), call), null));
    }

    private ResponseEntity<?> register(String yaml, ToolCall call) {
        byte[] bytes = yaml.getBytes(StandardCharsets.UTF_8);
        if (bytes.length > MAX_FILE_BYTES) {
            throw new ApiException(413, ErrorCodes.PAYLOAD_TOO_LARGE, "Expected a process file of at most 256 KiB");
        }
        try {
            return processes.register(new ProcessFileUpload(bytes), call.asOperation("POST", "/sop/processes/register"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
