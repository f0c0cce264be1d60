package dev.sopline.gateway.api;

import com.github.f4b6a3.ulid.UlidCreator;
import dev.sopline.engine.query.Answer;
import dev.sopline.engine.query.InstanceFilter;
import dev.sopline.engine.query.Page;
import dev.sopline.engine.state.ProcessVersions;
import dev.sopline.gateway.command.CommandBus;
import dev.sopline.gateway.command.IdempotencyKeys;
import dev.sopline.schemas.command.IdempotencyKey;
import dev.sopline.gateway.engine.EngineAccess;
import dev.sopline.gateway.web.ApiException;
import dev.sopline.gateway.web.JsonBodies;
import dev.sopline.schemas.command.CancelInstance;
import dev.sopline.schemas.command.ErrorCodes;
import dev.sopline.schemas.command.StartInstance;
import dev.sopline.schemas.command.SubmitStep;
import dev.sopline.schemas.instance.InstanceState;
import dev.sopline.schemas.instance.InstanceView;
import dev.sopline.schemas.instance.StepError;
import dev.sopline.schemas.validation.Violation;
import dev.sopline.schemas.validation.ViolationCode;
import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

/** Instances: start, read, list, cancel, and the submit that resolves a step. */
@RestController
public class InstanceController {

    private static final Logger LOG = LoggerFactory.getLogger(InstanceController.class);

    private final EngineAccess engine;
    private final CommandBus commands;
    private final RequestScope scope;
    private final IdempotencyKeys idempotency;

    public InstanceController(EngineAccess engine, CommandBus commands, RequestScope scope, IdempotencyKeys idempotency) {
        this.engine = engine;
        this.commands = commands;
        this.scope = scope;
        this.idempotency = idempotency;
    }

    @PostMapping("/sop/{name}/start")
    public ResponseEntity<Object> start(@PathVariable String name, @RequestBody(required = false) byte[] body, HttpServletRequest request) {
        String workspace = scope.workspace(request);
        JsonNode json = JsonBodies.object(body);
        JsonNode inputs = json.get("inputs");
        if (inputs == null || !inputs.isObject()) {
            throw new ApiException(422, ErrorCodes.INVALID_INPUTS, "Expected the body to hold an 'inputs' object",
                    List.of(Violation.of("inputs", inputs == null ? ViolationCode.REQUIRED : ViolationCode.INVALID_TYPE,
                            "Expected 'inputs' to be an object")));
        }
        String latestVersion = latestVersionIfReadable(workspace, name);
        Optional<IdempotencyKey> key = idempotency.of(request, workspace, scope.caller(request), body);
        String instanceId = key.map(found -> commands.instanceIdOnPartitionOf(found.scope())).orElseGet(() -> UlidCreator.getMonotonicUlid().toString());
        StartInstance start = new StartInstance(newCommandId(), workspace, instanceId, name, JsonBodies.toMap(inputs), null, StartInstance.API,
                latestVersion);
        return Replies.toResponse(commands.send(IdempotencyKeys.wrap(key, start)), reply -> reply);
    }

    @GetMapping("/sop/instances")
    public ResponseEntity<List<Map<String, Object>>> list(@RequestParam(required = false) String process,
                                                          @RequestParam(required = false) String state,
                                                          @RequestParam(required = false) Integer limit,
                                                          @RequestParam(required = false) String cursor,
                                                          HttpServletRequest request) {
        InstanceState stateFilter = state == null ? null : InstanceState.fromWireName(state).orElseThrow(() ->
                new ApiException(400, "invalid_parameter", "Expected state to be one of pending, running, waiting, completed, failed, cancelled"));
        int pageSize = Pagination.limit(limit);
        Page<InstanceView> page = engine.queries().instances(scope.workspace(request), new InstanceFilter(process, stateFilter), cursor, pageSize);
        return Pagination.respond(page.items().stream().map(ApiViews::summary).toList(), page.nextCursor(), request);
    }

    @GetMapping("/sop/{name}/{id}")
    public ResponseEntity<Map<String, Object>> get(@PathVariable String name, @PathVariable String id, HttpServletRequest request) {
        Answer<InstanceView> found = find(name, id, request);
        return withStaleness(found, ApiViews.instance(found.value(), scope.baseUrl()));
    }

    @GetMapping("/sop/{name}/{id}/steps")
    public ResponseEntity<List<Map<String, Object>>> steps(@PathVariable String name, @PathVariable String id, HttpServletRequest request) {
        String base = scope.baseUrl();
        Answer<InstanceView> found = find(name, id, request);
        return withStaleness(found, found.value().steps().stream().map(step -> ApiViews.step(step, base)).toList());
    }

    @PostMapping("/sop/{name}/{id}/cancel")
    public ResponseEntity<Object> cancel(@PathVariable String name, @PathVariable String id, HttpServletRequest request) {
        CancelInstance cancel = new CancelInstance(newCommandId(), scope.workspace(request), id, name);
        Optional<IdempotencyKey> key = idempotency.of(request, scope.workspace(request), scope.caller(request), new byte[0]);
        String base = scope.baseUrl();
        return Replies.toResponse(commands.send(IdempotencyKeys.wrap(key, cancel)), body -> ApiViews.instanceBody(body, base));
    }

    @PostMapping("/sop/{name}/{id}/steps/{stepId}/submit")
    public ResponseEntity<Object> submit(@PathVariable String name, @PathVariable String id, @PathVariable String stepId,
                                         @RequestBody(required = false) byte[] body, HttpServletRequest request) {
        JsonNode json = JsonBodies.object(body);
        JsonNode outputs = json.get("outputs");
        JsonNode error = json.get("error");
        SubmitStep submit;
        if (error != null && outputs == null) {
            if (!error.isObject() || !error.path("code").isString()) {
                throw new ApiException(422, ErrorCodes.INVALID_OUTPUTS, "Expected 'error' to be an object with a text 'code'",
                        List.of(Violation.of("error.code", ViolationCode.REQUIRED, "Expected a text error code")));
            }
            submit = new SubmitStep(newCommandId(), scope.workspace(request), id, name, stepId, null,
                    StepError.of(error.get("code").asString(), error.path("message").asString("")));
        } else {
            if (outputs == null || !outputs.isObject()) {
                throw new ApiException(422, ErrorCodes.INVALID_OUTPUTS, "Expected the body to hold an 'outputs' object",
                        List.of(Violation.of("outputs", outputs == null ? ViolationCode.REQUIRED : ViolationCode.INVALID_TYPE,
                                "Expected 'outputs' to be an object")));
            }
            submit = new SubmitStep(newCommandId(), scope.workspace(request), id, name, stepId, JsonBodies.toMap(outputs), null);
        }
        Optional<IdempotencyKey> key = idempotency.of(request, scope.workspace(request), scope.caller(request), body);
        String base = scope.baseUrl();
        return Replies.toResponse(commands.send(IdempotencyKeys.wrap(key, submit)), reply -> ApiViews.stepBody(reply, base));
    }

    /**
     * The latest version published, which the engine replica that takes the start waits for if it does not hold it
     * yet; 404 if no replica knows the process. When no replica can be read (one is failing over), the start does
     * not depend on the read: it goes out without a version and the engine starts the latest it holds, waiting
     * briefly for the process if it has none ({@code WaitingStarts}), and answers 404 itself if there is none.
     */
    private String latestVersionIfReadable(String workspace, String name) {
        Optional<ProcessVersions> versions;
        try {
            versions = engine.queries().process(workspace, name);
        } catch (InvalidStateStoreException unreadable) {
            LOG.debug("Starting '{}' without reading its latest version: {}", name, unreadable.getMessage());
            return null;
        }
        return versions.flatMap(ProcessVersions::latest)
                .map(latest -> latest.definition().version())
                .orElseThrow(() -> ProcessController.notFound("Expected a published process named '%s', but there is none".formatted(name)));
    }

    /** Marks the answer when a standby answered because the instance's owner could not be reached: it may be behind. */
    private <T> ResponseEntity<T> withStaleness(Answer<InstanceView> answer, T body) {
        ResponseEntity.BodyBuilder response = ResponseEntity.ok();
        if (answer.stale()) {
            response.header(Answer.STALE_HEADER, "true");
        }
        return response.body(body);
    }

    private Answer<InstanceView> find(String name, String id, HttpServletRequest request) {
        return engine.queries().instanceAnswer(scope.workspace(request), id)
                .filter(answer -> answer.value().process().equals(name))
                .orElseThrow(() -> InstanceAbsence.of(name, id));
    }

    static String newCommandId() {
        return UUID.randomUUID().toString();
    }
}
