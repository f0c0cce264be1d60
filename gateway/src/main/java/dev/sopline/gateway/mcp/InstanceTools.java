package dev.sopline.gateway.mcp;

import dev.sopline.gateway.api.InstanceController;
import dev.sopline.gateway.api.RequestScope;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Duration;
import java.util.List;
import dev.sopline.gateway.mcp.ToolSchemas.Effect;
import org.springframework.http.HttpMethod;
import org.springframework.stereotype.Component;

/** Starting, reading, listing and cancelling instances. */
@Component
class InstanceTools implements ToolSet {

    private static final String INSTANCE_ARGUMENTS = """
            "process": {"type": "string", "description": "The process name"},
            "instance_id": {"type": "string", "description": "The instance id, as start_instance or list_instances gave it"}""";

    private final InstanceController instances;
    private final HeldReads heldReads;
    private final RequestScope scope;

    InstanceTools(InstanceController instances, HeldReads heldReads, RequestScope scope) {
        this.instances = instances;
        this.heldReads = heldReads;
        this.scope = scope;
    }

    @Override
    public List<ToolDefinition> tools() {
        return List.of(
                new ToolDefinition(ToolSchemas.tool("start_instance", "Start an instance",
                        "Start an instance of a process with its inputs, which must match the process's declared inputs (call "
                                + "get_process to see them). Answers the new instance's id and state; follow it with get_instance.",
                        """
                        {"type": "object", "required": ["process", "inputs"], "additionalProperties": false, "properties": {
                          "process": {"type": "string", "description": "The process name, from list_processes"},
                          "inputs": {"type": "object", "description": "The process's declared inputs, name to value", "additionalProperties": true},
                        %s}}""".formatted(ToolSchemas.IDEMPOTENCY_KEY_PROPERTY), Effect.WRITES),
                        HttpMethod.POST, "/sop/{name}/start", call -> {
                            String name = call.text("process");
                            return instances.start(name, call.objectBody("inputs"), call.asOperation("POST", "/sop/" + name + "/start"));
                        }, null),
                new ToolDefinition(ToolSchemas.tool("get_instance", "Read an instance",
                        "Read an instance: its state (running, waiting, completed, failed, cancelled), inputs, outputs, error, and "
                                + "every step in order with its state. Use it to follow an instance and read its result. With wait, "
                                + "the answer comes once the instance is no longer pending or running (it waits on a person or a "
                                + "third party, or it has ended), or when that many seconds have passed; look at its state.",
                        """
                        {"type": "object", "required": ["process", "instance_id"], "additionalProperties": false, "properties": {
                        %s,
                          "wait": {"type": "integer", "minimum": 0, "maximum": 30, "description": "Seconds to wait for the instance to settle; without it, the answer is at once"}}}"""
                                .formatted(INSTANCE_ARGUMENTS), Effect.READS),
                        HttpMethod.GET, "/sop/{name}/{id}", call -> {
                            String name = call.text("process");
                            String id = call.text("instance_id");
                            HttpServletRequest operation = call.asOperation("GET", "/sop/" + name + "/" + id);
                            Integer wait = call.optionalInteger("wait");
                            if (wait == null) {
                                return instances.get(name, id, operation);
                            }
                            Duration waitFor = InstanceController.waitParameter(String.valueOf(wait));
                            return heldReads.read(scope.workspace(operation), waitFor,
                                    () -> instances.whenSettled(name, id, String.valueOf(wait), operation),
                                    () -> instances.get(name, id, operation));
                        }, null),
                new ToolDefinition(ToolSchemas.tool("list_instances", "List instances",
                        "List the workspace's instances (id, process, version, state, times), optionally of one process or in one "
                                + "state; `state: waiting` finds the ones waiting for a person or a third party. Pass next_cursor back "
                                + "as cursor for the next page.",
                        """
                        {"type": "object", "additionalProperties": false, "properties": {
                          "process": {"type": "string", "description": "Only instances of this process"},
                          "state": {"type": "string", "enum": ["pending", "running", "waiting", "completed", "failed", "cancelled"]},
                          "limit": {"type": "integer", "minimum": 1, "maximum": 500, "description": "Page size; default 50"},
                          "cursor": {"type": "string", "description": "next_cursor of the previous page"}}}""", Effect.READS),
                        HttpMethod.GET, "/sop/instances",
                        call -> instances.list(call.optionalText("process"), call.optionalText("state"), call.optionalInteger("limit"),
                                call.optionalText("cursor"), call.asOperation("GET", "/sop/instances")), "instances"),
                new ToolDefinition(ToolSchemas.tool("cancel_instance", "Cancel an instance",
                        "Cancel a running or waiting instance: it and its active steps become cancelled. An instance already "
                                + "completed, failed or cancelled cannot be cancelled.",
                        """
                        {"type": "object", "required": ["process", "instance_id"], "additionalProperties": false, "properties": {
                        %s,
                        %s}}""".formatted(INSTANCE_ARGUMENTS, ToolSchemas.IDEMPOTENCY_KEY_PROPERTY), Effect.ENDS),
                        HttpMethod.POST, "/sop/{name}/{id}/cancel", call -> {
                            String name = call.text("process");
                            String id = call.text("instance_id");
                            return instances.cancel(name, id, call.asOperation("POST", "/sop/" + name + "/" + id + "/cancel"));
                        }, null));
    }
}
