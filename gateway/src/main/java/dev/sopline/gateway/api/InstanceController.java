package dev.sopline.gateway.api;

import java.util.function.Function;
import dev.sopline.gateway.auth.TokenRegistry;
import dev.sopline.engine.api.query.StateUnavailableException;
import com.github.f4b6a3.ulid.UlidCreator;
import dev.sopline.gateway.api.doc.ApiTags;
import dev.sopline.gateway.api.doc.HistorySchemas;
import dev.sopline.gateway.api.doc.InstanceSchemas;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.enums.ParameterIn;
import io.swagger.v3.oas.annotations.headers.Header;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import dev.sopline.engine.api.query.Answer;
import dev.sopline.engine.api.query.InstanceFilter;
import dev.sopline.engine.api.query.Page;
import dev.sopline.engine.api.view.ProcessVersions;
import dev.sopline.gateway.command.CommandBus;
import dev.sopline.gateway.command.IdempotencyKeys;
import dev.sopline.gateway.command.WaitsForTheEngine;
import dev.sopline.schemas.command.IdempotencyKey;
import dev.sopline.schemas.command.InstanceCommand;
import dev.sopline.gateway.engine.EngineAccess;
import dev.sopline.gateway.web.ApiException;
import dev.sopline.gateway.web.HeldResponses;
import dev.sopline.gateway.web.JsonBodies;
import dev.sopline.gateway.auth.TokenRecord;
import dev.sopline.schemas.command.Actor;
import dev.sopline.schemas.command.CancelInstance;
import dev.sopline.schemas.command.RetryInstance;
import dev.sopline.schemas.command.ErrorCodes;
import dev.sopline.schemas.command.StartInstance;
import dev.sopline.schemas.command.SubmitStep;
import dev.sopline.schemas.instance.HistoryEntry;
import dev.sopline.schemas.instance.InstanceState;
import dev.sopline.schemas.instance.InstanceView;
import dev.sopline.schemas.instance.StepError;
import dev.sopline.schemas.validation.Violation;
import dev.sopline.schemas.validation.ViolationCode;
import dev.sopline.gateway.stream.InstanceWaits;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.request.async.DeferredResult;
import tools.jackson.databind.JsonNode;

/** Instances: start, read, list, cancel, retry, their history, and the submit that resolves a step. */
@RestController
@Tag(name = ApiTags.INSTANCES, description = "Start instances of a process, follow them, resolve their steps, cancel them")
public class InstanceController {

    /** The optional header that makes a retried write answer as the first one (CONTRACT section 3). */
    private static final String IDEMPOTENCY_KEY = "Up to 255 printable characters. A repeat with the same key by the same token within "
            + "24 h returns the first answer and changes nothing; the same key with another body gives 422 `idempotency_key_reused`.";
    private static final String NAME = "The process name";
    private static final String ID = "The instance id";

    private static final Logger LOG = LoggerFactory.getLogger(InstanceController.class);

    private final EngineAccess engine;
    private final CommandBus commands;
    private final RequestScope scope;
    private final IdempotencyKeys idempotency;

    private final InstanceWaits waits;
    private final HeldResponses heldResponses;
    private final TokenRegistry tokens;

    public InstanceController(EngineAccess engine, CommandBus commands, RequestScope scope, IdempotencyKeys idempotency,
                              InstanceWaits waits, HeldResponses heldResponses, TokenRegistry tokens) {
        this.tokens = tokens;
        this.engine = engine;
        this.commands = commands;
        this.scope = scope;
        this.idempotency = idempotency;
        this.waits = waits;
        this.heldResponses = heldResponses;
    }

    @Operation(operationId = "startInstance", summary = "Start an instance of a process",
            description = "Starts the latest published version of the process with the given inputs, which must match its declared "
                    + "inputs (`getProcess` lists them). The answer comes once the engine has created the instance: an immediate "
                    + "`getInstance` finds it.",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true,
                    content = @Content(mediaType = "application/json", schema = @Schema(implementation = InstanceSchemas.StartRequest.class))),
            parameters = @Parameter(in = ParameterIn.HEADER, name = "Idempotency-Key", description = IDEMPOTENCY_KEY,
                    schema = @Schema(type = "string", maxLength = 255)),
            responses = @ApiResponse(responseCode = "201", description = "Started",
                    content = @Content(mediaType = "application/json", schema = @Schema(implementation = InstanceSchemas.StartedInstance.class))))
    @PostMapping("/sop/{name}/start")
    @WaitsForTheEngine
    public ResponseEntity<Object> start(@Parameter(description = NAME, example = "review") @PathVariable String name, @RequestBody(required = false) byte[] body, HttpServletRequest request) {
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
                latestVersion, actor(request));
        return Replies.toResponse(commands.send(IdempotencyKeys.wrap(key, start)), reply -> reply);
    }

    @Operation(operationId = "listInstances", summary = "List the workspace's instances",
            description = "Optionally filtered by process and state. The body is an array; when more exist, the `Link` header "
                    + "holds the next page's URL (`rel=\"next\"`, with its `cursor`).",
            responses = @ApiResponse(responseCode = "200", description = "A page of instances",
                    headers = @Header(name = "Link", description = "`<url>; rel=\"next\"` when more exist", schema = @Schema(type = "string")),
                    content = @Content(mediaType = "application/json",
                            array = @ArraySchema(schema = @Schema(implementation = InstanceSchemas.InstanceSummary.class)))))
    @GetMapping("/sop/instances")
    public ResponseEntity<List<Map<String, Object>>> list(@Parameter(description = "Only instances of this process", example = "review")
                                                          @RequestParam(required = false) String process,
                                                          @Parameter(description = "Only instances in this state",
                                                                  schema = @Schema(allowableValues = {"pending", "running", "waiting", "completed", "failed", "cancelled"}))
                                                          @RequestParam(required = false) String state,
                                                          @Parameter(description = "Page size, 1 to 500; default 50", example = "50")
                                                          @RequestParam(required = false) Integer limit,
                                                          @Parameter(description = "The cursor from the previous page's Link header")
                                                          @RequestParam(required = false) String cursor,
                                                          HttpServletRequest request) {
        InstanceState stateFilter = state == null ? null : InstanceState.fromWireName(state).orElseThrow(() ->
                new ApiException(400, "invalid_parameter", "Expected state to be one of pending, running, waiting, completed, failed, cancelled"));
        int pageSize = Pagination.limit(limit);
        Page<InstanceView> page = engine.queries().instances(scope.workspace(request), new InstanceFilter(process, stateFilter),
                Pagination.cursor(cursor, Pagination.INSTANCE_CURSOR), pageSize);
        var answer = Pagination.respond(page.items().stream().map(ApiViews::summary).toList(), page.nextCursor(), request);
        // Some partitions were read from a standby copy while their owner was unreachable: the page may be a little behind.
        return page.stale() ? ResponseEntity.ok().headers(answer.getHeaders()).header(Answer.STALE_HEADER, "true").body(answer.getBody()) : answer;
    }

    @Operation(operationId = "getInstance", summary = "Read an instance and its steps",
            description = "The instance's state, inputs, outputs, and every declared step in order. Read-your-writes: after a start "
                    + "or a submit has answered, this shows it. With `wait`, the answer waits until the instance is no longer "
                    + "`pending` or `running` (it waits on a person or a third party, or it has ended), for at most that many "
                    + "seconds, and then shows the instance as it is; look at its `state`.",
            parameters = @Parameter(in = ParameterIn.QUERY, name = "wait", description = "Seconds to wait for the instance to "
                    + "settle, 0 to 30; without it, the answer is at once",
                    schema = @Schema(type = "integer", minimum = "0", maximum = "30")),
            responses = @ApiResponse(responseCode = "200", description = "The instance",
                    content = @Content(mediaType = "application/json", schema = @Schema(implementation = InstanceSchemas.Instance.class))))
    @GetMapping("/sop/{name}/{id}")
    public ResponseEntity<Map<String, Object>> get(@Parameter(description = NAME, example = "review") @PathVariable String name,
                                                   @Parameter(description = ID) @PathVariable String id, HttpServletRequest request) {
        return instanceResponse(find(name, id, request), scope.callbackBase(request));
    }

    /**
     * {@link #get} with {@code wait}: held, without a thread, until the instance settles or the wait runs out
     * ({@link InstanceWaits}). Its own mapping, so a read without a wait stays a plain synchronous one.
     */
    @io.swagger.v3.oas.annotations.Hidden
    @GetMapping(path = "/sop/{name}/{id}", params = "wait")
    public ResponseEntity<?> getWhenSettled(@PathVariable String name, @PathVariable String id, @RequestParam("wait") String wait,
                                            HttpServletRequest request, HttpServletResponse response) {
        Duration backstop = waitParameter(wait).plus(InstanceWaits.GRACE).plusSeconds(5);
        return heldResponses.answer(request, response, () -> whenSettled(name, id, wait, request), backstop);
    }

    /**
     * The read of {@link #getWhenSettled}, answered in a result once the instance settles or the wait runs out, for
     * whoever holds it: the API over the servlet's async context ({@link HeldResponses}), MCP on its request's thread.
     */
    public DeferredResult<ResponseEntity<Map<String, Object>>> whenSettled(String name, String id, String wait, HttpServletRequest request) {
        Duration waitFor = waitParameter(wait);
        String workspace = scope.workspace(request);
        String base = scope.callbackBase(request);
        Supplier<Answer<InstanceView>> read = () -> find(workspace, name, id);
        String tokenId = scope.caller(request);
        DeferredResult<ResponseEntity<Map<String, Object>>> result =
                new DeferredResult<>(waitFor.plus(InstanceWaits.GRACE).plusSeconds(5).toMillis());
        // Answered later, the read shows the instance only while the token that asked is still usable: a token revoked
        // or expired during the wait gets 401, as any request of it would by then.
        Function<Answer<InstanceView>, ResponseEntity<Map<String, Object>>> respond = found -> tokenId == null || tokens.find(workspace, tokenId)
                .filter(token -> token.isUsableAt(java.time.Instant.now())).isPresent()
                ? instanceResponse(found, base)
                : ResponseEntity.status(401).body(Map.of("error", ErrorCodes.UNAUTHORIZED, "message", "The token that asked was revoked or expired during the wait"));
        // The wait makes the first read itself, once registered; a read without a wait, or past the bounds, is made here.
        if (waitFor.isZero() || !waits.await(workspace, id, waitFor, read, InstanceController::isSettled, respond, result)) {
            result.setResult(instanceResponse(read.get(), base));
        }
        return result;
    }

    /** The {@code wait} of a read: whole seconds from 0 to 30, or 400 {@code invalid_parameter}. */
    public static Duration waitParameter(String wait) {
        try {
            long seconds = Long.parseLong(wait.trim());
            if (seconds >= 0 && seconds <= InstanceWaits.MAX_WAIT.toSeconds()) {
                return Duration.ofSeconds(seconds);
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw new ApiException(400, "invalid_parameter", "Expected wait to be whole seconds between 0 and " + InstanceWaits.MAX_WAIT.toSeconds());
    }

    /** No longer moving by itself: waiting on a person or a third party, or ended. */
    private static boolean isSettled(Answer<InstanceView> answer) {
        InstanceState state = answer.value().state();
        return state != InstanceState.PENDING && state != InstanceState.RUNNING;
    }

    private ResponseEntity<Map<String, Object>> instanceResponse(Answer<InstanceView> found, String base) {
        return withStaleness(found, ApiViews.instance(found.value(), base));
    }

    @Operation(operationId = "listInstanceSteps", summary = "List an instance's steps",
            description = "Every declared step of the instance in order, with its state; steps not reached yet are `pending`.",
            responses = @ApiResponse(responseCode = "200", description = "The steps",
                    content = @Content(mediaType = "application/json",
                            array = @ArraySchema(schema = @Schema(implementation = InstanceSchemas.Step.class)))))
    @GetMapping("/sop/{name}/{id}/steps")
    public ResponseEntity<List<Map<String, Object>>> steps(@Parameter(description = NAME, example = "review") @PathVariable String name,
                                                           @Parameter(description = ID) @PathVariable String id, HttpServletRequest request) {
        String base = scope.callbackBase(request);
        Answer<InstanceView> found = find(name, id, request);
        return withStaleness(found, found.value().steps().stream().map(step -> ApiViews.step(step, base)).toList());
    }

    @Operation(operationId = "getInstanceHistory", summary = "Read an instance's history",
            description = "Every change of the instance, oldest first: its creation (`from` null), each state change of the instance "
                    + "and of its steps, and each new attempt of a step (`active` to `active`, with the failed attempt's error), "
                    + "each with its time and who caused it. The body is an array; when more exist, the `Link` header holds the "
                    + "next page's URL (`rel=\"next\"`, with its `cursor`). Kept as long as the instance.",
            responses = @ApiResponse(responseCode = "200", description = "A page of the history",
                    headers = @Header(name = "Link", description = "`<url>; rel=\"next\"` when more exist", schema = @Schema(type = "string")),
                    content = @Content(mediaType = "application/json",
                            array = @ArraySchema(schema = @Schema(implementation = HistorySchemas.Entry.class)))))
    @GetMapping("/sop/{name}/{id}/history")
    public ResponseEntity<List<Map<String, Object>>> history(@Parameter(description = NAME, example = "review") @PathVariable String name,
                                                             @Parameter(description = ID) @PathVariable String id,
                                                             @Parameter(description = "Page size, 1 to 500; default 50", example = "50")
                                                             @RequestParam(required = false) Integer limit,
                                                             @Parameter(description = "The cursor from the previous page's Link header")
                                                             @RequestParam(required = false) String cursor,
                                                             HttpServletRequest request) {
        find(name, id, request);
        int pageSize = Pagination.limit(limit);
        Page<HistoryEntry> page = engine.queries().history(scope.workspace(request), id, Pagination.cursor(cursor, Pagination.HISTORY_CURSOR), pageSize);
        return Pagination.respond(page.items().stream().map(HistoryViews::entry).toList(), page.nextCursor(), request);
    }

    @Operation(operationId = "cancelInstance", summary = "Cancel an instance",
            description = "No body. The instance becomes `cancelled` and its active steps too; an instance already completed, failed "
                    + "or cancelled gives 422 `invalid_transition`.",
            parameters = @Parameter(in = ParameterIn.HEADER, name = "Idempotency-Key", description = IDEMPOTENCY_KEY,
                    schema = @Schema(type = "string", maxLength = 255)),
            responses = @ApiResponse(responseCode = "200", description = "The cancelled instance",
                    content = @Content(mediaType = "application/json", schema = @Schema(implementation = InstanceSchemas.Instance.class))))
    @PostMapping("/sop/{name}/{id}/cancel")
    @WaitsForTheEngine
    public ResponseEntity<Object> cancel(@Parameter(description = NAME, example = "review") @PathVariable String name,
                                         @Parameter(description = ID) @PathVariable String id, HttpServletRequest request) {
        return sendWithoutBody(new CancelInstance(newCommandId(), scope.workspace(request), id, name, actor(request)), request);
    }

    @Operation(operationId = "retryInstance", summary = "Retry a failed instance",
            description = "No body. The failed step starts a new attempt (its `attempt` goes on from the last one) with its "
                    + "timeout started again; in a parallel block the steps its failure cancelled become active again too. The "
                    + "instance is `running` or `waiting` again, its `error` cleared, and a `sop.instance.retried` event is "
                    + "published. Read-your-writes: an immediate `getInstance` shows it. An instance that is not `failed` gives "
                    + "422 `invalid_transition`.",
            parameters = @Parameter(in = ParameterIn.HEADER, name = "Idempotency-Key", description = IDEMPOTENCY_KEY,
                    schema = @Schema(type = "string", maxLength = 255)),
            responses = @ApiResponse(responseCode = "200", description = "The instance, running or waiting again",
                    content = @Content(mediaType = "application/json", schema = @Schema(implementation = InstanceSchemas.Instance.class))))
    @PostMapping("/sop/{name}/{id}/retry")
    @WaitsForTheEngine
    public ResponseEntity<Object> retry(@Parameter(description = NAME, example = "review") @PathVariable String name,
                                        @Parameter(description = ID) @PathVariable String id, HttpServletRequest request) {
        return sendWithoutBody(new RetryInstance(newCommandId(), scope.workspace(request), id, name, actor(request)), request);
    }

    /** An instance command whose request has no body (cancel, retry): sent under its idempotency key, answered with the instance. */
    private ResponseEntity<Object> sendWithoutBody(InstanceCommand command, HttpServletRequest request) {
        Optional<IdempotencyKey> key = idempotency.of(request, scope.workspace(request), scope.caller(request), new byte[0]);
        String base = scope.callbackBase(request);
        return Replies.toResponse(commands.send(IdempotencyKeys.wrap(key, command)), body -> ApiViews.instanceBody(body, base));
    }

    @Operation(operationId = "submitStep", summary = "Resolve an active step with its outputs",
            description = "Completes an active step (a form, an escalated judgment, an automated step done by an HTTP worker) with "
                    + "its declared outputs: every declared output without a `value` expression, nothing else, enums within their "
                    + "values. `listPendingSteps` shows what each active step needs. An HTTP worker reports a failed attempt with "
                    + "`error` instead of `outputs`; the engine then retries the step, or fails it at once when the error says "
                    + "`\"retryable\": false`. A worker should name the `attempt` it ran (from `listPendingSteps`): a result of an "
                    + "attempt the engine has moved on from (timed out, then retried) is then refused with 422 `invalid_transition` "
                    + "instead of resolving the current attempt.",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true,
                    content = @Content(mediaType = "application/json", schema = @Schema(implementation = InstanceSchemas.SubmitRequest.class))),
            parameters = @Parameter(in = ParameterIn.HEADER, name = "Idempotency-Key", description = IDEMPOTENCY_KEY,
                    schema = @Schema(type = "string", maxLength = 255)),
            responses = @ApiResponse(responseCode = "200", description = "The step, completed (or its attempt failed)",
                    content = @Content(mediaType = "application/json", schema = @Schema(implementation = InstanceSchemas.Step.class))))
    @PostMapping("/sop/{name}/{id}/steps/{stepId}/submit")
    @WaitsForTheEngine
    public ResponseEntity<Object> submit(@Parameter(description = NAME, example = "review") @PathVariable String name,
                                         @Parameter(description = ID) @PathVariable String id,
                                         @Parameter(description = "The step id", example = "read") @PathVariable String stepId,
                                         @RequestBody(required = false) byte[] body, HttpServletRequest request) {
        JsonNode json = JsonBodies.object(body);
        JsonNode outputs = json.get("outputs");
        JsonNode error = json.get("error");
        Integer attempt = NamedAttempt.of(json);
        SubmitStep submit;
        if (error != null && outputs == null) {
            if (!error.isObject() || !error.path("code").isString()) {
                throw new ApiException(422, ErrorCodes.INVALID_OUTPUTS, "Expected 'error' to be an object with a text 'code'",
                        List.of(Violation.of("error.code", ViolationCode.REQUIRED, "Expected a text error code")));
            }
            submit = new SubmitStep(newCommandId(), scope.workspace(request), id, name, stepId, null,
                    new StepError(null, error.get("code").asString(), error.path("message").asString(""), retryable(error)), actor(request), attempt);
        } else {
            if (outputs == null || !outputs.isObject()) {
                throw new ApiException(422, ErrorCodes.INVALID_OUTPUTS, "Expected the body to hold an 'outputs' object",
                        List.of(Violation.of("outputs", outputs == null ? ViolationCode.REQUIRED : ViolationCode.INVALID_TYPE,
                                "Expected 'outputs' to be an object")));
            }
            submit = new SubmitStep(newCommandId(), scope.workspace(request), id, name, stepId, JsonBodies.toMap(outputs), null, actor(request), attempt);
        }
        Optional<IdempotencyKey> key = idempotency.of(request, scope.workspace(request), scope.caller(request), body);
        String base = scope.callbackBase(request);
        return Replies.toResponse(commands.send(IdempotencyKeys.wrap(key, submit)), reply -> ApiViews.stepBody(reply, base));
    }

    /** Only an explicit {@code "retryable": false} stops the retries; anything else leaves the step's policy in charge. */
    private static Boolean retryable(JsonNode error) {
        JsonNode retryable = error.get("retryable");
        return retryable != null && retryable.isBoolean() && !retryable.asBoolean() ? Boolean.FALSE : null;
    }

    /**
     * The latest version published, which the engine replica that takes the start waits for if it does not hold it
     * yet; 404 if no replica knows the process. When no replica can be read (one is failing over), the start does
     * not depend on the read: it goes out without a version and the engine starts the latest it holds, waiting
     * briefly for the process if it has none ({@code WaitingStarts}), and answers 404 itself if there is none.
     */
    private String latestVersionIfReadable(String workspace, String name) {
        Optional<ProcessVersions.PublishedVersion> latest;
        try {
            latest = engine.queries().latestVersion(workspace, name);
        } catch (StateUnavailableException unreadable) {
            LOG.debug("Starting '{}' without reading its latest version: {}", name, unreadable.getMessage());
            return null;
        }
        return latest.map(found -> found.definition().version())
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
        return find(scope.workspace(request), name, id);
    }

    private Answer<InstanceView> find(String workspace, String name, String id) {
        return engine.queries().instanceAnswer(workspace, id)
                .filter(answer -> answer.value().process().equals(name))
                .orElseThrow(() -> InstanceAbsence.of(name, id));
    }

    /** The calling token as the instance's history names it: from the authenticated token, never from the request. */
    private Actor actor(HttpServletRequest request) {
        TokenRecord token = scope.token(request);
        return token == null ? null : Actor.token(token.id(), token.name());
    }

    static String newCommandId() {
        return UUID.randomUUID().toString();
    }
}
