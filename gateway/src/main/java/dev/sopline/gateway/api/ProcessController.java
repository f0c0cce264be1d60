package dev.sopline.gateway.api;

import dev.sopline.engine.api.view.ProcessVersions;
import dev.sopline.gateway.api.doc.ApiTags;
import dev.sopline.gateway.api.doc.ProcessSchemas;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import dev.sopline.gateway.command.CommandBus;
import dev.sopline.gateway.command.WaitsForTheEngine;
import dev.sopline.gateway.engine.EngineAccess;
import dev.sopline.gateway.web.ApiException;
import dev.sopline.gateway.workspace.WorkspaceLocks;
import dev.sopline.gateway.workspace.WorkspaceRegistry;
import dev.sopline.schemas.command.CommandReply;
import dev.sopline.schemas.command.ErrorCodes;
import dev.sopline.schemas.command.RegisterProcess;
import dev.sopline.schemas.command.RetireProcess;
import dev.sopline.schemas.definition.ProcessDefinition;
import dev.sopline.schemas.definition.ProcessFiles;
import dev.sopline.schemas.definition.TriggerType;
import dev.sopline.schemas.validation.Violation;
import dev.sopline.schemas.validation.ViolationCode;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RequestPart;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.multipart.MultipartFile;

/** Discovery and registration of processes. */
@RestController
@Tag(name = ApiTags.PROCESSES, description = "Publish process files and discover what they take and give")
public class ProcessController {

    private final EngineAccess engine;
    private final CommandBus commands;
    private final RequestScope scope;
    private final DefinitionVisibility visibility;
    private final WorkspaceLocks locks;
    private final WorkspaceRegistry workspaces;
    private final int maxScheduledPerWorkspace;

    /** Scheduled processes per workspace unless {@code SOP_MAX_SCHEDULED_PROCESSES} says otherwise (see {@link #refuseScheduleOverLimit}). */
    public static final int DEFAULT_MAX_SCHEDULED_PER_WORKSPACE = 100;

    public ProcessController(EngineAccess engine, CommandBus commands, RequestScope scope, DefinitionVisibility visibility, WorkspaceLocks locks,
                             WorkspaceRegistry workspaces, @Value("${sop.max-scheduled-processes:" + DEFAULT_MAX_SCHEDULED_PER_WORKSPACE + "}") int maxScheduledPerWorkspace) {
        this.engine = engine;
        this.commands = commands;
        this.scope = scope;
        this.visibility = visibility;
        this.locks = locks;
        this.workspaces = workspaces;
        this.maxScheduledPerWorkspace = maxScheduledPerWorkspace;
    }

    @Operation(operationId = "listProcesses", summary = "List the published processes",
            description = "The latest version of every process of the workspace. `/sop/` answers the same.",
            responses = @ApiResponse(responseCode = "200", description = "The processes",
                    content = @Content(mediaType = "application/json",
                            array = @ArraySchema(schema = @Schema(implementation = ProcessSchemas.ProcessSummary.class)))))
    @GetMapping({"/sop", "/sop/"})
    public List<Map<String, Object>> list(HttpServletRequest request) {
        return engine.queries().processes(scope.workspace(request)).stream()
                .flatMap(versions -> versions.latest().stream())
                .map(latest -> summary(latest.definition()))
                .toList();
    }

    @Operation(operationId = "getProcess", summary = "Read a process: its inputs, outputs and steps",
            description = "The definition of the latest published version, or of `version`: what a start must give (`inputs`), "
                    + "what the instance gives (`outputs`), and the steps in order.",
            responses = @ApiResponse(responseCode = "200", description = "The definition",
                    content = @Content(mediaType = "application/json", schema = @Schema(implementation = ProcessSchemas.ProcessDefinition.class))))
    @GetMapping("/sop/{name}/schema")
    public ProcessDefinition schema(@Parameter(description = "The process name", example = "review") @PathVariable String name,
                                    @Parameter(description = "A published version; the latest when absent", example = "1.0")
                                    @RequestParam(required = false) String version, HttpServletRequest request) {
        ProcessVersions versions = engine.queries().process(scope.workspace(request), name)
                .orElseThrow(() -> notFound("Expected a published process named '%s', but there is none".formatted(name)));
        return (version == null ? versions.latest() : versions.version(version))
                .orElseThrow(() -> notFound("Expected version %s of process '%s', but it is not published".formatted(version, name)))
                .definition();
    }

    @Operation(operationId = "registerProcess", summary = "Register a process file (YAML)",
            description = "Publishes the process version the file declares, as `multipart/form-data` with the YAML in the field "
                    + "`file` (at most 256 KiB). The same name and version with identical content answers 201 again; different "
                    + "content under a published version is 422 `invalid_definition` (`version_exists`). Once answered, the "
                    + "version can be started. The file format's JSON Schema is at `/schemas/process.json`.",
            responses = @ApiResponse(responseCode = "201", description = "Registered",
                    content = @Content(mediaType = "application/json", schema = @Schema(implementation = ProcessSchemas.RegisteredProcess.class))))
    @PostMapping(path = "/sop/processes/register", consumes = MediaType.MULTIPART_FORM_DATA_VALUE)
    @WaitsForTheEngine
    public ResponseEntity<Object> register(@Parameter(description = "The process file, YAML") @RequestPart("file") MultipartFile file, HttpServletRequest request) throws IOException {
        String workspace = scope.workspace(request);
        byte[] bytes = file.getBytes();
        ProcessFiles.LoadResult result = ProcessFiles.load(bytes);
        if (result instanceof ProcessFiles.Invalid invalid) {
            throw new ApiException(422, ErrorCodes.INVALID_DEFINITION, "Expected a valid process file; see details", invalid.violations());
        }
        ProcessFiles.Loaded loaded = (ProcessFiles.Loaded) result;
        ProcessDefinition definition = loaded.file().process();
        RegisterProcess register = new RegisterProcess(UUID.randomUUID().toString(), workspace, loaded.file(), new String(bytes, StandardCharsets.UTF_8));
        CommandReply reply = isScheduled(definition)
                // Counted and registered as one step, so a burst of registrations cannot all pass the count.
                ? locks.exclusively(workspace, () -> {
                    refuseScheduleOverLimit(workspace, definition.name());
                    return registerAndAwait(register);
                })
                : registerAndAwait(register);
        return Replies.toResponse(reply, body -> body);
    }

    private CommandReply registerAndAwait(RegisterProcess register) {
        CommandReply reply = commands.send(register);
        if (reply.isSuccess()) {
            ProcessDefinition definition = register.file().process();
            visibility.awaitVisible(register.workspace(), definition.name(), definition.version());
            if (workspaces.isDeleted(register.workspace())) {
                return retireLateArrival(register);
            }
        }
        return reply;
    }

    /**
     * The workspace was deleted while this registration was on its way (its token was checked before): the deletion
     * retires the processes it lists, after marking the workspace deleted, and may have listed them before this one
     * was decided. Retired here, its schedule never fires in a workspace nobody can see into any more.
     */
    private CommandReply retireLateArrival(RegisterProcess register) {
        String process = register.file().process().name();
        CommandReply retired = commands.send(new RetireProcess(UUID.randomUUID().toString(), register.workspace(), process));
        if (retired.isSuccess()) {
            visibility.awaitRetired(register.workspace(), process);
        }
        throw new ApiException(401, ErrorCodes.UNAUTHORIZED,
                "Expected workspace '%s' to exist, but it was deleted while process '%s' was being registered".formatted(register.workspace(), process));
    }

    /**
     * Each scheduled process starts instances on its own, on the engine every workspace shares: one workspace holds at
     * most {@code SOP_MAX_SCHEDULED_PROCESSES} of them. A new version of a process already scheduled is not one more.
     */
    private void refuseScheduleOverLimit(String workspace, String process) {
        List<String> scheduled = engine.queries().processes(workspace).stream()
                .filter(versions -> !versions.retired())
                .filter(versions -> versions.latest().map(latest -> isScheduled(latest.definition())).orElse(false))
                .map(ProcessVersions::name)
                .toList();
        if (scheduled.size() >= maxScheduledPerWorkspace && !scheduled.contains(process)) {
            String message = "Expected at most " + maxScheduledPerWorkspace
                    + " processes with a schedule in a workspace; give one of them another trigger, or a new version without its schedule, first";
            throw new ApiException(422, "invalid_request", message, List.of(Violation.of("workspace", ViolationCode.LIMIT_REACHED, message)));
        }
    }

    private static boolean isScheduled(ProcessDefinition definition) {
        return definition.trigger() != null && definition.trigger().type() == TriggerType.SCHEDULE;
    }

    private static Map<String, Object> summary(ProcessDefinition definition) {
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("name", definition.name());
        summary.put("version", definition.version());
        summary.put("description", definition.description() == null ? "" : definition.description());
        summary.put("owner", definition.owner() == null ? "" : definition.owner());
        return summary;
    }

    static ApiException notFound(String message) {
        return new ApiException(404, ErrorCodes.NOT_FOUND, message);
    }
}
