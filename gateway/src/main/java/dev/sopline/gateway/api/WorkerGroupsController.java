package dev.sopline.gateway.api;

import dev.sopline.engine.api.view.ProcessVersions;
import dev.sopline.gateway.api.doc.ApiTags;
import dev.sopline.gateway.engine.EngineAccess;
import dev.sopline.gateway.workers.WorkerGroup;
import dev.sopline.gateway.workers.WorkerGroups;
import dev.sopline.gateway.workspace.PlatformAdministrator;
import dev.sopline.schemas.definition.StepType;
import dev.sopline.schemas.topic.Topics;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The Kafka worker groups of automated steps, so a team can see whether its workers are up and keeping up. Worker
 * groups belong to no workspace (a team's topic serves every workspace whose steps name the team), so a workspace
 * sees the groups that read the teams its own processes name; the platform administrator sees every group.
 */
@RestController
@Tag(name = ApiTags.STEPS)
public class WorkerGroupsController {

    private final WorkerGroups groups;
    private final EngineAccess engine;
    private final RequestScope scope;

    public WorkerGroupsController(WorkerGroups groups, EngineAccess engine, RequestScope scope) {
        this.groups = groups;
        this.engine = engine;
        this.scope = scope;
    }

    @Operation(operationId = "listWorkerGroups", summary = "List the worker groups of automated steps",
            description = "Each Kafka consumer group that reads the automated steps of a team the workspace's processes name "
                    + "(every group for the platform administrator), seen in the last 5 minutes: the teams "
                    + "(`namespaces`) whose topics it reads, its live members, and its `lag`: steps written to its topics that "
                    + "it has not finished, whether waiting or running, and of those its `in_flight`: the steps its members run now. A group without members is down while its steps wait. "
                    + "Read from the broker at most every 5 s; the same figures are the `sop_workers_lag`, `sop_workers_in_flight` "
                    + "and `sop_workers_members` gauges on `/actuator/prometheus`. HTTP workers take steps from the pending feed and are not listed.",
            responses = @ApiResponse(responseCode = "200", description = "The worker groups, by name",
                    content = @Content(mediaType = "application/json", array = @ArraySchema(schema = @Schema(implementation = GroupDoc.class)))))
    @GetMapping("/sop/workers")
    public List<Map<String, Object>> list(HttpServletRequest request) {
        List<WorkerGroup> all = groups.list();
        if (PlatformAdministrator.is(scope.token(request))) {
            return all.stream().map(WorkerGroupsController::view).toList();
        }
        Set<String> teams = teamsNamedBy(engine.queries().processes(scope.workspace(request)));
        return all.stream().filter(group -> group.namespaces().stream().anyMatch(teams::contains)).map(WorkerGroupsController::view).toList();
    }

    /** The namespaces of the automated steps of every version of these processes. */
    static Set<String> teamsNamedBy(List<ProcessVersions> processes) {
        return processes.stream()
                .flatMap(process -> process.versions().values().stream())
                .flatMap(version -> version.definition().steps().stream())
                .filter(step -> step.type() == StepType.AUTOMATED && step.run() != null)
                .map(step -> Topics.namespaceOf(step.run()))
                .collect(Collectors.toSet());
    }

    private static Map<String, Object> view(WorkerGroup group) {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("group", group.group());
        view.put("namespaces", group.namespaces());
        view.put("members", group.members().stream().map(member -> Map.of("client_id", member.clientId(), "host", member.host(),
                "partitions", member.partitions())).toList());
        view.put("lag", group.lag());
        view.put("in_flight", group.inFlight());
        view.put("last_seen", group.lastSeen().toString());
        return view;
    }

    @Schema(name = "WorkerGroup", description = "A consumer group of automated workers.")
    record GroupDoc(
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED, example = "billing-workers") String group,
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED, example = "[\"billing\"]") List<String> namespaces,
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED) List<MemberDoc> members,
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED, description = "Steps written to its topics and not yet finished by it", example = "3") long lag,
            @com.fasterxml.jackson.annotation.JsonProperty("in_flight")
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED, description = "Steps its members run now (a part of lag), as they "
                    + "last recorded it with their offset commits", example = "2") long inFlight,
            @com.fasterxml.jackson.annotation.JsonProperty("last_seen")
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED, format = "date-time", description = "When it last had members") String lastSeen) {}

    @Schema(name = "WorkerGroupMember", description = "A live member of a worker group.")
    record MemberDoc(
            @com.fasterxml.jackson.annotation.JsonProperty("client_id") @Schema(requiredMode = Schema.RequiredMode.REQUIRED, example = "billing-7f3a") String clientId,
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED, example = "/10.0.0.7") String host,
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED, description = "Partitions of step topics assigned to it", example = "2") int partitions) {}
}
