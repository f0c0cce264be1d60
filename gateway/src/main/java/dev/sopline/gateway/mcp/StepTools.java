package dev.sopline.gateway.mcp;

import dev.sopline.gateway.api.InstanceController;
import dev.sopline.gateway.api.PendingStepController;
import dev.sopline.gateway.mcp.ToolSchemas.Effect;
import java.util.List;
import org.springframework.http.HttpMethod;
import org.springframework.stereotype.Component;

/** Finding the steps that wait to be resolved, and resolving them. */
@Component
class StepTools implements ToolSet {

    private final PendingStepController pending;
    private final InstanceController instances;

    StepTools(PendingStepController pending, InstanceController instances) {
        this.pending = pending;
        this.instances = instances;
    }

    @Override
    public List<ToolDefinition> tools() {
        return List.of(
                new ToolDefinition(ToolSchemas.tool("list_pending_steps", "List steps waiting to be resolved",
                        "List the active steps waiting to be resolved, oldest first: forms and escalated judgments for people, "
                                + "automated tasks for workers. Each has its instance_id, step_id, resolved inputs and the outputs "
                                + "submit_step must give (names, types, enum values). Pass next_cursor back as cursor for the next page.",
                        """
                        {"type": "object", "additionalProperties": false, "properties": {
                          "type": {"type": "string", "enum": ["form", "automated", "judgment", "webhook"]},
                          "process": {"type": "string", "description": "Only steps of this process"},
                          "run": {"type": "string", "description": "Only automated steps with this task name"},
                          "assignee": {"type": "string", "enum": ["agent", "human", "worker", "third_party"]},
                          "instance_id": {"type": "string", "description": "Only steps of this instance"},
                          "limit": {"type": "integer", "minimum": 1, "maximum": 500, "description": "Page size; default 50"},
                          "cursor": {"type": "string", "description": "next_cursor of the previous page"}}}""", Effect.READS),
                        HttpMethod.GET, "/sop/steps/pending",
                        call -> pending.pending(call.optionalText("type"), call.optionalText("process"), call.optionalText("run"),
                                call.optionalText("assignee"), call.optionalText("instance_id"), call.optionalInteger("limit"), call.optionalText("cursor"),
                                call.asOperation("GET", "/sop/steps/pending")), "steps"),
                new ToolDefinition(ToolSchemas.tool("submit_step", "Resolve a step",
                        "Resolve an active step with its outputs: every output list_pending_steps shows for it (except computed "
                                + "ones), nothing else, enum values as listed. Give the attempt list_pending_steps showed: if the step "
                                + "was retried since, the submit is refused instead of resolving the newer attempt. Answers the completed "
                                + "step; the instance then moves on.",
                        """
                        {"type": "object", "required": ["process", "instance_id", "step_id", "outputs"], "additionalProperties": false, "properties": {
                          "process": {"type": "string", "description": "The process name"},
                          "instance_id": {"type": "string", "description": "The instance id"},
                          "step_id": {"type": "string", "description": "The step id, from list_pending_steps or get_instance"},
                          "outputs": {"type": "object", "description": "The step's declared outputs, name to value", "additionalProperties": true},
                          "attempt": {"type": "integer", "minimum": 1, "description": "The step's attempt, from list_pending_steps; refused with invalid_transition once the step has moved on from it"},
                        %s}}""".formatted(ToolSchemas.IDEMPOTENCY_KEY_PROPERTY), Effect.WRITES),
                        HttpMethod.POST, "/sop/{name}/{id}/steps/{stepId}/submit", call -> {
                            String name = call.text("process");
                            String id = call.text("instance_id");
                            String step = call.text("step_id");
                            return instances.submit(name, id, step, call.objectBody("outputs", List.of("attempt")),
                                    call.asOperation("POST", "/sop/" + name + "/" + id + "/steps/" + step + "/submit"));
                        }, null));
    }
}
