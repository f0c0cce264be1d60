package dev.sopline.worker;

import dev.sopline.schemas.command.ErrorCodes;
import dev.sopline.schemas.instance.StepError;
import dev.sopline.schemas.json.Json;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * HTTP mode, for workers that do not reach Kafka: polls {@code GET /sop/steps/pending} for each registered
 * {@code run} and submits outputs (or an error) through the gateway. A step has run once its result exists, so the
 * result is not dropped for a passing failure, which would leave the step pending, to be taken and run again with
 * its side effects:
 * <ul>
 *   <li>429 and 503: sent again after {@code Retry-After} (at most {@link Backoff#MAX_RETRY_AFTER}); gateway
 *       unreachable or too slow to answer ({@link #REQUEST_TIMEOUT}, the body included): sent again after a
 *       jittered, growing back-off. Both until taken; only a stop gives up.</li>
 *   <li>408 and other 5xx answers: sent again {@link #SUBMIT_TRIES} times in all, with the same back-off.</li>
 *   <li>Every submit carries an {@code Idempotency-Key} ({@link SubmitKey}): a repeat of one the gateway took gets
 *       the first answer, and never resolves the step's next attempt.</li>
 *   <li>413: the attempt is reported failed with {@code payload_too_large}; outputs that cannot be written as JSON:
 *       with {@code invalid_payload} (both retried by the step's policy); 422 {@code invalid_outputs}: with
 *       {@code invalid_outputs} and {@code "retryable": false}, logged at ERROR, since the handler would return the same
 *       outputs at every attempt. 422 {@code invalid_transition}: the step was resolved elsewhere (two HTTP workers
 *       may take the same step; the engine keeps the first result), not an error.</li>
 *   <li>Any other refusal, or the 5xx tries spent: logged at ERROR, and the worker does not take that attempt from the
 *       feed again for {@link #SET_ASIDE}, since the feed hands it out again at once and its handler would run again
 *       and again. Another worker, or this one later, may still run it.</li>
 * </ul>
 *
 * <p>A 403 means the token's role does not allow what a worker does (CONTRACT section 8: the {@code worker} role or a
 * wider one is needed), and a 401 that the token is unknown, revoked or expired. Retrying at once cannot help, so the
 * worker logs one ERROR saying so, gives up the result it was submitting, and tries again every 30 s: it keeps running
 * ({@code isRunning()} stays true), so a token fixed behind it (a proxy's rule, a gateway upgrade) brings it back
 * without a restart; a revoked or expired token needs a new one and a restart. Before taking any step it reads its
 * own role ({@code GET /sop/token}): a {@code viewer} token would let it poll and run steps whose results it could
 * then never submit, repeating their side effects at each try.
 */
final class HttpStepWorker implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(HttpStepWorker.class);
    private static final Duration IDLE = Duration.ofMillis(500);
    private static final Duration FIRST_BACKOFF = Duration.ofMillis(250);
    private static final Duration MAX_BACKOFF = Duration.ofSeconds(30);
    static final Duration FORBIDDEN_BACKOFF = Duration.ofSeconds(30);
    /** The longest wait for a whole answer, headers and body: a gateway that stalls mid-answer holds no thread longer. */
    static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);
    /** Tries of a submit answered 408 or 5xx other than 503, which a moment may cure and a defect will not. */
    static final int SUBMIT_TRIES = 5;
    /** How long an attempt whose result could not be delivered is left in the feed for others. */
    static final Duration SET_ASIDE = Duration.ofMinutes(5);
    /** The largest page of the pending feed (CONTRACT section 3). */
    private static final int MAX_PAGE = 500;
    /** Pages of the feed one poll reads at most to find steps it may run. */
    private static final int MAX_PAGES_PER_POLL = 5;
    private static final Pattern NEXT_LINK = Pattern.compile("<([^>]+)>\\s*;\\s*rel=\"next\"");
    /** Attempts set aside at most; the oldest is forgotten first. */
    private static final int MAX_SET_ASIDE = 10_000;
    /** Roles that may not submit steps; any other (worker, operator, admin, or one this SDK does not know) may try. */
    private static final Set<String> ROLES_WITHOUT_SUBMIT = Set.of("viewer");
    private static final String TOKEN_ADVICE = "Workers need a token with role 'worker' (or operator, admin): create one with "
            + "POST /workspace/tokens {\"name\":\"my-worker\",\"role\":\"worker\"} and an admin token";

    private final String baseUrl;
    private final String token;
    private final Map<String, StepHandler> handlers;
    private final int concurrency;
    private final Duration requestTimeout;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final ExecutorService pool;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final RecentKeys setAside = new RecentKeys(MAX_SET_ASIDE);
    /** The runs with handlers, polled in turn. */
    private final List<String> runs;
    /** Where the next pass over the runs starts. Owned by the poll thread. */
    private int firstRun;
    /** Free slots a worker with steps running waits for before it polls again. */
    private final int minimumFreeToPoll;
    /** The attempts whose handlers run now, by attempt key. Owned by the poll thread. */
    private final Set<String> inFlight = new HashSet<>();
    /** Handlers that have returned, for the poll thread to free their slots; {@link #WAKE} on a stop. */
    private final BlockingQueue<Returned> returned = new LinkedBlockingQueue<>();
    private volatile Duration stopTimeout;
    /** Set once a stop has waited its timeout out: a handler returning after that submits nothing. */
    private volatile boolean cuttingShort;

    HttpStepWorker(String baseUrl, String token, Map<String, StepHandler> handlers, int concurrency, Duration closeTimeout) {
        this(baseUrl, token, handlers, concurrency, closeTimeout, REQUEST_TIMEOUT);
    }

    HttpStepWorker(String baseUrl, String token, Map<String, StepHandler> handlers, int concurrency, Duration closeTimeout,
                   Duration requestTimeout) {
        this.baseUrl = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
        this.token = token;
        this.handlers = Map.copyOf(handlers);
        this.runs = List.copyOf(this.handlers.keySet());
        this.concurrency = Math.max(1, concurrency);
        this.minimumFreeToPoll = Math.max(1, this.concurrency / 4);
        this.stopTimeout = closeTimeout;
        this.requestTimeout = requestTimeout;
        this.pool = Executors.newFixedThreadPool(this.concurrency, runnable -> {
            Thread thread = new Thread(runnable, "sop-http-step");
            thread.setDaemon(true);
            return thread;
        });
    }

    /**
     * Polls while slots are free and hands each step to a handler thread, without waiting for the handlers already
     * running: a slow or hung handler holds its own slot only, and the steps of every other run go on being taken.
     * A step stays in the feed until its result is taken, so the attempts running here are skipped when the feed
     * hands them out again.
     */
    @Override
    public void run() {
        Backoff backoff = new Backoff(FIRST_BACKOFF, MAX_BACKOFF);
        boolean roleChecked = false;
        boolean refusedReported = false;
        while (running.get()) {
            try {
                settleReturned();
                if (!roleChecked) {
                    checkRole();
                    roleChecked = true;
                }
                int free = concurrency - inFlight.size();
                if (free < minimumFreeToPoll && !inFlight.isEmpty()) {
                    // A poll reads the running steps again with the new ones: wait for a few free slots, not each one.
                    awaitReturned(IDLE);
                    continue;
                }
                int started = 0;
                // Each pass starts at the next run, so that a run with steps always waiting does not take every slot.
                for (int i = 0; i < runs.size() && started < free && running.get(); i++) {
                    started += pollOnce(runs.get((firstRun + i) % runs.size()), free - started);
                }
                firstRun = (firstRun + 1) % runs.size();
                backoff.reset();
                if (refusedReported) {
                    LOG.info("The gateway {} accepts this worker's token again; taking steps", baseUrl);
                    refusedReported = false;
                }
                if (started < free || started == 0) {
                    // The feed had no more to run, or every slot is taken: until a handler returns, or a while.
                    awaitReturned(IDLE);
                }
            } catch (Refused e) {
                if (!refusedReported) {
                    LOG.error("{}. No step is taken until then; trying again every {} s", e.getMessage(), FORBIDDEN_BACKOFF.toSeconds());
                    refusedReported = true;
                }
                roleChecked = false;
                pause(FORBIDDEN_BACKOFF);
            } catch (RetryLater e) {
                pause(e.wait);
            } catch (IOException e) {
                Duration wait = backoff.next();
                LOG.warn("Gateway {} unreachable: {}; retrying in {} ms", baseUrl, describe(e), wait.toMillis());
                pause(wait);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        finishRunningSteps();
    }

    /**
     * Running handlers get the stop's timeout to return and report; then they are interrupted, and whatever they
     * return is not submitted: the step stays in the feed, for whoever polls next.
     */
    private void finishRunningSteps() {
        pool.shutdown();
        try {
            if (!pool.awaitTermination(stopTimeout.toMillis(), TimeUnit.MILLISECONDS)) {
                cuttingShort = true;
                pool.shutdownNow();
                LOG.warn("Worker stopped with {} step(s) still running past its close timeout of {} ms; they are interrupted, "
                        + "report nothing, and are run again by whoever takes them next", inFlightAtStop(), stopTimeout.toMillis());
            }
        } catch (InterruptedException e) {
            cuttingShort = true;
            pool.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }

    private int inFlightAtStop() {
        returned.forEach(done -> inFlight.remove(done.attempt()));
        return inFlight.size();
    }

    void stop(Duration timeout) {
        stopTimeout = timeout;
        running.set(false);
        stopped.countDown();
        returned.add(WAKE);
    }

    /** Frees the slots of the handlers that returned; a refused token or role, seen by any of them, is thrown on. */
    private void settleReturned() {
        Refused refused = null;
        Returned done;
        while ((done = returned.poll()) != null) {
            if (done == WAKE) {
                continue;
            }
            inFlight.remove(done.attempt());
            if (done.failure() instanceof Refused refusal) {
                refused = refusal;
            } else if (done.failure() != null && running.get()) {
                LOG.error("Step {} failed in this worker: {}; it is left to others for {} min", done.attempt(),
                        describe(done.failure()), SET_ASIDE.toMinutes(), done.failure());
                setAside.add(done.attempt(), Instant.now(), SET_ASIDE);
            }
        }
        if (refused != null) {
            throw refused;
        }
    }

    /** Waits until a handler returns (or the worker stops), at most {@code timeout}; the returned stay queued. */
    private void awaitReturned(Duration timeout) throws InterruptedException {
        Returned done = returned.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (done != null) {
            returned.add(done);
        }
    }

    /** Reads the token's own role; a gateway without {@code GET /sop/token} leaves the judgment to its submit answers. */
    private void checkRole() throws IOException, InterruptedException {
        HttpResponse<String> response = send(HttpRequest.newBuilder(URI.create(baseUrl + "/sop/token")).GET());
        if (response.statusCode() != 200) {
            return;
        }
        String role = json(response).path("role").asString("");
        if (ROLES_WITHOUT_SUBMIT.contains(role)) {
            throw new Refused("This worker's token has role '" + role + "', which may read steps but not submit them. " + TOKEN_ADVICE);
        }
    }

    /**
     * Hands the steps of the feed's first pages to handlers, up to {@code slots} of them; returns how many it started.
     * Steps set aside and steps running here come first in the oldest-first feed, and a page ends at a mebibyte of data
     * whatever its limit, so the worker asks for as many more and follows the feed's next links, a few pages at most,
     * to reach the newer steps. A step is noted as running here as soon as it is handed out, so a page that fails
     * after it (a 503, a dropped connection) does not hand it out twice.
     */
    private int pollOnce(String run, int slots) throws IOException, InterruptedException {
        Instant now = Instant.now();
        int limit = Math.min(MAX_PAGE, slots + inFlight.size() + setAside.size(now));
        URI page = URI.create(baseUrl + "/sop/steps/pending?type=automated&limit=" + limit + "&run=" + URLEncoder.encode(run, StandardCharsets.UTF_8));
        int started = 0;
        for (int pages = 0; page != null && pages < MAX_PAGES_PER_POLL && started < slots && running.get(); pages++) {
            HttpResponse<String> response = send(HttpRequest.newBuilder(page).GET());
            if (response.statusCode() != 200) {
                // An error answer is an object, not a page of steps.
                throw new IOException("the pending feed answered " + response.statusCode() + ": " + GatewayAnswer.excerpt(response.body()));
            }
            JsonNode steps = json(response);
            if (!steps.isArray()) {
                throw new IOException("the pending feed answered something other than a list of steps: "
                        + GatewayAnswer.excerpt(response.body()));
            }
            for (JsonNode step : steps) {
                String attempt = attemptKey(step);
                // Not once the worker is stopping: a step started now would only be cut short.
                if (started < slots && running.get() && !inFlight.contains(attempt) && !setAside.contains(attempt, now)) {
                    inFlight.add(attempt);
                    pool.execute(() -> runAndReport(step, handlers.get(run), attempt));
                    started++;
                }
            }
            page = nextPage(response);
        }
        return started;
    }

    /** On a handler thread: runs the step, submits its result, and hands its slot back to the poll thread. */
    private void runAndReport(JsonNode step, StepHandler handler, String attempt) {
        Throwable failure = null;
        try {
            resolve(step, handler);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException | RuntimeException e) {
            failure = e;
        } finally {
            returned.add(new Returned(attempt, failure));
        }
    }

    /** The next page of the feed, from the answer's {@code Link: <url>; rel="next"}, on this worker's own base URL. */
    private URI nextPage(HttpResponse<String> response) {
        Matcher next = NEXT_LINK.matcher(response.headers().firstValue("Link").orElse(""));
        if (!next.find()) {
            return null;
        }
        URI link = URI.create(next.group(1));
        // The gateway builds links from the request it was given; behind a proxy that may not be this worker's base.
        return URI.create(baseUrl + link.getRawPath() + (link.getRawQuery() == null ? "" : "?" + link.getRawQuery()));
    }

    @SuppressWarnings("unchecked")
    private Void resolve(JsonNode step, StepHandler handler) throws IOException, InterruptedException {
        StepContext context = new StepContext(null, step.path("instance_id").asString(), step.path("process").asString(),
                step.path("version").asString(), step.path("step_id").asString(), step.path("run").asString(), step.path("attempt").asInt(),
                Json.mapper().convertValue(step.path("inputs"), LinkedHashMap.class), this::sendHeartbeat);
        StepOutcome outcome = StepOutcome.run(handler, context);
        if (cuttingShort) {
            return null; // interrupted by the worker's stop: its outcome says nothing about the step, which runs again elsewhere
        }
        Map<String, Object> body = new LinkedHashMap<>();
        // Named, so that a result of an attempt the engine has moved on from (timed out, then retried) is refused, not
        // taken as the next attempt's.
        body.put("attempt", context.attempt());
        if (outcome instanceof StepOutcome.Completed completed) {
            body.put("outputs", completed.outputs());
        } else {
            body.put("error", errorBody(((StepOutcome.Failed) outcome).error()));
        }
        String path = "/sop/%s/%s/steps/%s/submit".formatted(context.process(), context.instanceId(), context.stepId());
        byte[] submitted;
        try {
            submitted = ResultJson.encode(body);
        } catch (ResultJson.Unencodable e) {
            LOG.error("The result of step {} of instance {} (run '{}'), attempt {}, cannot be sent; reporting the attempt failed with {}",
                    context.stepId(), context.instanceId(), context.run(), context.attempt(), ResultJson.UNENCODABLE, e.getCause());
            submitted = errorSubmit(StepError.of(ResultJson.UNENCODABLE, e.getMessage()), context.attempt());
        }
        GatewayAnswer answer = submitUntilAnswered(path, submitted, context);
        if (answer.status() == 413) {
            // Refused for its size, it would be refused again each time the step is taken and run: the attempt fails
            // instead, and the step's retry policy decides, as the engine does for a result over the instance's budget.
            LOG.warn("The result of {} {} is {} bytes, more than the gateway takes; reporting the attempt failed",
                    context.instanceId(), context.stepId(), submitted.length);
            answer = submitUntilAnswered(path, errorSubmit(StepError.of(ErrorCodes.PAYLOAD_TOO_LARGE,
                    "The step's result is %d bytes of JSON, more than the gateway takes".formatted(submitted.length)), context.attempt()), context);
        } else if (answer.refusedAs(422, ErrorCodes.INVALID_OUTPUTS) && body.containsKey("outputs")) {
            // The handler would return the same outputs at every attempt: the step fails now, with the gateway's reason.
            LOG.error("The gateway refused the outputs of step {} of instance {} (run '{}'), attempt {}: {}. Reporting the attempt "
                    + "failed with invalid_outputs, not to be retried; fix the handler or the process file's outputs",
                    context.stepId(), context.instanceId(), context.run(), context.attempt(), answer.message());
            answer = submitUntilAnswered(path, errorSubmit(StepError.permanent(ErrorCodes.INVALID_OUTPUTS,
                    "The gateway refused the worker's outputs: " + answer.message()), context.attempt()), context);
        }
        if (answer.refusedAs(422, ErrorCodes.INVALID_TRANSITION)) {
            LOG.debug("Step {} of {} was resolved elsewhere, or its attempt timed out: {}", context.stepId(), context.instanceId(), answer.message());
        } else if (!answer.taken()) {
            LOG.error("The gateway did not take the result of step {} of instance {} (run '{}'), attempt {}: it answered {}: {}. The "
                            + "step stays active; this worker leaves it to others for {} min rather than run it again at once",
                    context.stepId(), context.instanceId(), context.run(), context.attempt(), answer.describe(), answer.message(),
                    SET_ASIDE.toMinutes());
            setAside.add(attemptKey(context), Instant.now(), SET_ASIDE);
        }
        return null;
    }

    /** The body of a submit that reports the attempt failed: text only, so it is always written. */
    private static byte[] errorSubmit(StepError error, int attempt) {
        return Json.mapper().writeValueAsBytes(Map.of("attempt", attempt, "error", errorBody(error)));
    }

    private static Map<String, Object> errorBody(StepError error) {
        Map<String, Object> reported = new LinkedHashMap<>();
        reported.put("code", error.code());
        reported.put("message", error.message() == null ? "" : error.message());
        if (!error.allowsRetry()) {
            reported.put("retryable", false);
        }
        return reported;
    }

    /**
     * Submits a step's result until the gateway answers it: after {@code Retry-After} on 429 (the token's rate) and 503
     * (the engine busy or a write not taken), after a growing back-off while the gateway cannot be reached, in both
     * cases until the worker stops; after the same back-off on 408 and other 5xx answers, {@link #SUBMIT_TRIES} times
     * in all. Only a stop gives up, and then the step is run again by whoever takes it next.
     */
    private GatewayAnswer submitUntilAnswered(String path, byte[] body, StepContext step) throws IOException, InterruptedException {
        String idempotencyKey = SubmitKey.of(step.instanceId(), step.stepId(), step.attempt(), body);
        Backoff backoff = new Backoff(FIRST_BACKOFF, MAX_BACKOFF);
        int failedAnswers = 0;
        while (true) {
            Duration wait;
            try {
                GatewayAnswer answer = GatewayAnswer.of(send(HttpRequest.newBuilder(URI.create(baseUrl + path))
                        .header("Content-Type", "application/json")
                        .header("Idempotency-Key", idempotencyKey)
                        .POST(HttpRequest.BodyPublishers.ofByteArray(body))));
                if (!answer.worthRepeating() || ++failedAnswers >= SUBMIT_TRIES) {
                    return answer;
                }
                wait = backoff.next();
                LOG.warn("The gateway answered {} to the result of {} {}; trying again in {} ms ({} of {} tries)", answer.describe(),
                        step.instanceId(), step.stepId(), wait.toMillis(), failedAnswers, SUBMIT_TRIES);
            } catch (RetryLater e) {
                wait = e.wait;
                LOG.debug("The gateway asked to submit the result of {} {} again in {}", step.instanceId(), step.stepId(), wait);
            } catch (IOException e) {
                wait = backoff.next();
                LOG.warn("Could not submit the result of {} {}: {}; trying again in {} ms", step.instanceId(), step.stepId(),
                        describe(e), wait.toMillis());
            }
            pause(wait);
            if (!running.get()) {
                throw new IOException("the worker stopped before the result of " + step.instanceId() + " " + step.stepId()
                        + " was taken; the step will be run again");
            }
        }
    }

    /** {@code POST .../heartbeat} for the attempt being run; a failure is logged, the next heartbeat may pass. */
    private void sendHeartbeat(StepContext step) {
        String path = "/sop/%s/%s/steps/%s/heartbeat".formatted(step.process(), step.instanceId(), step.stepId());
        try {
            HttpResponse<String> response = send(HttpRequest.newBuilder(URI.create(baseUrl + path))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(Json.mapper().writeValueAsBytes(Map.of("attempt", step.attempt())))));
            if (response.statusCode() != 202) {
                LOG.warn("The heartbeat of {} {} was refused ({}): {}", step.instanceId(), step.stepId(), response.statusCode(),
                        GatewayAnswer.excerpt(response.body()));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException | RuntimeException e) {
            LOG.warn("The heartbeat of {} {} could not be sent: {}", step.instanceId(), step.stepId(), describe(e));
        }
    }

    private HttpResponse<String> send(HttpRequest.Builder builder) throws IOException, InterruptedException {
        HttpRequest request = builder.header("X-SOP-Token", token).timeout(requestTimeout).build();
        HttpResponse<String> response = exchange(request);
        int status = response.statusCode();
        if (status == 429 || status == 503) {
            throw new RetryLater(Backoff.retryAfter(response.headers().firstValue("Retry-After")));
        }
        if (status == 401) {
            throw new Refused("The gateway answered 401 to " + request.method() + " " + request.uri().getPath()
                    + ": this worker's token is unknown, revoked or expired. " + TOKEN_ADVICE + ", then restart the worker with it");
        }
        if (status == 403) {
            throw new Refused("The gateway answered 403 forbidden to " + request.method() + " " + request.uri().getPath()
                    + ": this worker's token has a role that does not allow it. " + TOKEN_ADVICE);
        }
        return response;
    }

    /**
     * The whole answer within {@link #requestTimeout}. The request's own timeout ends at the headers: a gateway (or a
     * proxy) that sends them and then stalls would hold the thread for as long as the connection lives.
     */
    private HttpResponse<String> exchange(HttpRequest request) throws IOException, InterruptedException {
        CompletableFuture<HttpResponse<String>> answer = http.sendAsync(request, HttpResponse.BodyHandlers.ofString());
        try {
            return answer.get(requestTimeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            answer.cancel(true);
            throw new HttpTimeoutException("no complete answer to " + request.method() + " " + request.uri().getPath() + " within "
                    + requestTimeout.toMillis() + " ms");
        } catch (InterruptedException e) {
            answer.cancel(true);
            throw e;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            throw new IOException(e.getCause());
        }
    }

    /** The body as JSON; a body that is not (a proxy's HTML page) is a failure to reach the gateway, retried as one. */
    private static JsonNode json(HttpResponse<String> response) throws IOException {
        try {
            return Json.mapper().readTree(response.body());
        } catch (JacksonException e) {
            throw new IOException("the answer to " + response.request().uri().getPath() + " is not JSON: "
                    + GatewayAnswer.excerpt(response.body()));
        }
    }

    private static String attemptKey(JsonNode step) {
        return RunningStep.key(step.path("instance_id").asString(), step.path("step_id").asString(), step.path("attempt").asInt());
    }

    private static String attemptKey(StepContext step) {
        return RunningStep.key(step.instanceId(), step.stepId(), step.attempt());
    }

    private static String describe(Throwable e) {
        return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    }

    /** Waits, or less when the worker is stopped, so closing never waits out a long backoff. */
    private void pause(Duration duration) {
        try {
            stopped.await(duration.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The gateway refuses the token (401), or its role does not allow what the worker asked (403, or a role known to be too narrow). */
    private static final class Refused extends RuntimeException {
        Refused(String message) {
            super(message, null, false, false);
        }
    }

    /** A handler that has returned: the attempt it ran, and what kept its result from being taken, if anything. */
    private record Returned(String attempt, Throwable failure) {}

    private static final Returned WAKE = new Returned("", null);

    /** The gateway asked to wait ({@code Retry-After}). */
    private static final class RetryLater extends RuntimeException {
        private final Duration wait;

        RetryLater(Duration wait) {
            super(null, null, false, false);
            this.wait = wait;
        }
    }
}
