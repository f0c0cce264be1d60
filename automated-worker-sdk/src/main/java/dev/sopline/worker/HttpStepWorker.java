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
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;

/**
 * HTTP mode, for workers that do not reach Kafka: polls {@code GET /sop/steps/pending} for each registered
 * {@code run} and submits outputs (or an error) through the gateway. On 429 and 503 it waits as long as
 * {@code Retry-After} says, and backs off exponentially when the gateway cannot be reached; a step's result is sent
 * again after such a wait rather than dropped, so the step does not run twice for it. Two HTTP workers may
 * pick the same step; the engine accepts the first submit and the other gets 422, which is not an error here.
 *
 * <p>A 403 means the token's role does not allow what a worker does (CONTRACT section 8: the {@code worker} role or a
 * wider one is needed). Retrying at once cannot help, so the worker logs one ERROR saying so and tries again every
 * 30 s: it keeps running, so a token fixed behind it (a proxy's rule, a gateway upgrade) brings it back without a
 * restart. Before taking any step it reads its own role ({@code GET /sop/token}): a {@code viewer} token would let it
 * poll and run steps whose results it could then never submit, repeating their side effects at each try.
 */
final class HttpStepWorker implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(HttpStepWorker.class);
    private static final Duration IDLE = Duration.ofMillis(500);
    private static final Duration MAX_BACKOFF = Duration.ofSeconds(30);
    static final Duration FORBIDDEN_BACKOFF = Duration.ofSeconds(30);
    /** Roles that may not submit steps; any other (worker, operator, admin, or one this SDK does not know) may try. */
    private static final Set<String> ROLES_WITHOUT_SUBMIT = Set.of("viewer");

    private final String baseUrl;
    private final String token;
    private final Map<String, StepHandler> handlers;
    private final int concurrency;
    private final Duration closeTimeout;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final ExecutorService pool;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final CountDownLatch stopped = new CountDownLatch(1);

    HttpStepWorker(String baseUrl, String token, Map<String, StepHandler> handlers, int concurrency, Duration closeTimeout) {
        this.baseUrl = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
        this.token = token;
        this.handlers = Map.copyOf(handlers);
        this.concurrency = Math.max(1, concurrency);
        this.closeTimeout = closeTimeout;
        this.pool = Executors.newFixedThreadPool(this.concurrency, runnable -> {
            Thread thread = new Thread(runnable, "sop-http-step");
            thread.setDaemon(true);
            return thread;
        });
    }

    @Override
    public void run() {
        Duration backoff = Duration.ofMillis(250);
        boolean roleChecked = false;
        boolean forbiddenReported = false;
        while (running.get()) {
            try {
                if (!roleChecked) {
                    checkRole();
                    roleChecked = true;
                }
                int handled = 0;
                for (String run : handlers.keySet()) {
                    handled += pollOnce(run);
                }
                backoff = Duration.ofMillis(250);
                if (forbiddenReported) {
                    LOG.info("The gateway {} accepts this worker's token again; taking steps", baseUrl);
                    forbiddenReported = false;
                }
                if (handled == 0) {
                    pause(IDLE);
                }
            } catch (Forbidden e) {
                if (!forbiddenReported) {
                    LOG.error("{}. Workers need a token with role 'worker' (or operator, admin): create one with "
                            + "POST /workspace/tokens {\"name\":\"my-worker\",\"role\":\"worker\"} and an admin token. "
                            + "No step is taken until then; trying again every {} s", e.getMessage(), FORBIDDEN_BACKOFF.toSeconds());
                    forbiddenReported = true;
                }
                roleChecked = false;
                pause(FORBIDDEN_BACKOFF);
            } catch (RetryLater e) {
                pause(e.wait);
            } catch (IOException e) {
                LOG.warn("Gateway {} unreachable: {}; retrying in {} ms", baseUrl, e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName(),
                        backoff.toMillis());
                pause(backoff);
                backoff = backoff.multipliedBy(2).compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : backoff.multipliedBy(2);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        pool.shutdown();
        try {
            pool.awaitTermination(closeTimeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    void stop(Duration timeout) {
        running.set(false);
        stopped.countDown();
    }

    /** Reads the token's own role; a gateway without {@code GET /sop/token} leaves the judgment to its submit answers. */
    private void checkRole() throws IOException, InterruptedException {
        HttpResponse<String> response = send(HttpRequest.newBuilder(URI.create(baseUrl + "/sop/token")).GET());
        if (response.statusCode() != 200) {
            return;
        }
        String role = Json.mapper().readTree(response.body()).path("role").asString("");
        if (ROLES_WITHOUT_SUBMIT.contains(role)) {
            throw new Forbidden("This worker's token has role '" + role + "', which may read steps but not submit them");
        }
    }

    private int pollOnce(String run) throws IOException, InterruptedException {
        HttpResponse<String> response = send(HttpRequest.newBuilder(URI.create(baseUrl + "/sop/steps/pending?type=automated&limit="
                + concurrency + "&run=" + URLEncoder.encode(run, StandardCharsets.UTF_8))).GET());
        if (response.statusCode() != 200) {
            // An error answer is an object, not a page of steps.
            throw new IOException("the pending feed answered " + response.statusCode() + ": " + response.body());
        }
        JsonNode steps = Json.mapper().readTree(response.body());
        List<Future<?>> running = new java.util.ArrayList<>();
        for (JsonNode step : steps) {
            running.add(pool.submit(() -> resolve(step, handlers.get(run))));
        }
        Forbidden forbidden = null;
        for (Future<?> future : running) {
            try {
                future.get();
            } catch (ExecutionException e) {
                if (e.getCause() instanceof Forbidden refused) {
                    forbidden = refused;
                } else {
                    LOG.warn("Submitting a step failed: {}", e.getCause().getMessage());
                }
            }
        }
        if (forbidden != null) {
            throw forbidden;
        }
        return steps.size();
    }

    @SuppressWarnings("unchecked")
    private Void resolve(JsonNode step, StepHandler handler) throws IOException, InterruptedException {
        StepContext context = new StepContext(null, step.path("instance_id").asString(), step.path("process").asString(),
                step.path("version").asString(), step.path("step_id").asString(), step.path("run").asString(), step.path("attempt").asInt(),
                Json.mapper().convertValue(step.path("inputs"), LinkedHashMap.class), this::sendHeartbeat);
        StepOutcome outcome = StepOutcome.run(handler, context);
        Map<String, Object> body = new LinkedHashMap<>();
        if (outcome instanceof StepOutcome.Completed completed) {
            body.put("outputs", completed.outputs());
        } else {
            StepError error = ((StepOutcome.Failed) outcome).error();
            Map<String, Object> reported = new LinkedHashMap<>(Map.of("code", error.code(), "message", error.message() == null ? "" : error.message()));
            if (!error.allowsRetry()) {
                reported.put("retryable", false);
            }
            body.put("error", reported);
        }
        String path = "/sop/%s/%s/steps/%s/submit".formatted(context.process(), context.instanceId(), context.stepId());
        byte[] submitted = Json.mapper().writeValueAsBytes(body);
        HttpResponse<String> response = submitUntilTaken(path, submitted, context);
        if (response.statusCode() == 413) {
            // Refused for its size, it would be refused again each time the step is taken and run: the attempt fails
            // instead, and the step's retry policy decides, as the engine does for a result over the instance's budget.
            LOG.warn("The result of {} {} is {} bytes, more than the gateway takes; reporting the attempt failed",
                    context.instanceId(), context.stepId(), submitted.length);
            response = submitUntilTaken(path, Json.mapper().writeValueAsBytes(Map.of("error", Map.of("code", ErrorCodes.PAYLOAD_TOO_LARGE,
                    "message", "The step's result is %d bytes of JSON, more than the gateway takes".formatted(submitted.length)))), context);
        }
        if (response.statusCode() == 422) {
            LOG.debug("Step {} of {} was resolved elsewhere: {}", context.stepId(), context.instanceId(), response.body());
        }
        return null;
    }

    /**
     * Submits a step's result until the gateway answers it: after {@code Retry-After} on 429 (the token's rate) and 503
     * (the engine busy or a write not taken), after a growing back-off while the gateway cannot be reached. The step
     * has run: dropping its result for a passing refusal would leave the step pending, to be taken and run again with
     * its side effects. Only a stop gives up, and then the step is run again by whoever takes it next.
     */
    private HttpResponse<String> submitUntilTaken(String path, byte[] body, StepContext step) throws IOException, InterruptedException {
        Duration backoff = Duration.ofMillis(250);
        while (true) {
            Duration wait;
            try {
                return submit(path, body);
            } catch (RetryLater e) {
                wait = e.wait;
                LOG.debug("The gateway asked to submit the result of {} {} again in {}", step.instanceId(), step.stepId(), wait);
            } catch (IOException e) {
                wait = backoff;
                backoff = backoff.multipliedBy(2).compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : backoff.multipliedBy(2);
                LOG.warn("Could not submit the result of {} {}: {}; trying again in {} ms", step.instanceId(), step.stepId(),
                        e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName(), wait.toMillis());
            }
            pause(wait);
            if (!running.get()) {
                throw new IOException("the worker stopped before the result of " + step.instanceId() + " " + step.stepId()
                        + " was taken; the step will be run again");
            }
        }
    }

    private HttpResponse<String> submit(String path, byte[] body) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(URI.create(baseUrl + path)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)));
    }

    /** {@code POST .../heartbeat} for the attempt being run; a failure is logged, the next heartbeat may pass. */
    private void sendHeartbeat(StepContext step) {
        String path = "/sop/%s/%s/steps/%s/heartbeat".formatted(step.process(), step.instanceId(), step.stepId());
        try {
            HttpResponse<String> response = send(HttpRequest.newBuilder(URI.create(baseUrl + path))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(Json.mapper().writeValueAsBytes(Map.of("attempt", step.attempt())))));
            if (response.statusCode() != 202) {
                LOG.warn("The heartbeat of {} {} was refused ({}): {}", step.instanceId(), step.stepId(), response.statusCode(), response.body());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException | RuntimeException e) {
            LOG.warn("The heartbeat of {} {} could not be sent: {}", step.instanceId(), step.stepId(), e.getMessage());
        }
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(request.header("X-SOP-Token", token).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() == 429 || response.statusCode() == 503) {
            long seconds = response.headers().firstValue("Retry-After").map(HttpStepWorker::seconds).orElse(1L);
            throw new RetryLater(Duration.ofSeconds(Math.max(1, seconds)));
        }
        if (response.statusCode() == 401) {
            throw new IOException("the gateway refused the token (401)");
        }
        if (response.statusCode() == 403) {
            throw new Forbidden("The gateway answered 403 forbidden to " + response.request().method() + " "
                    + response.request().uri().getPath() + ": this worker's token has a role that does not allow it");
        }
        return response;
    }

    private static long seconds(String header) {
        try {
            return Long.parseLong(header.trim());
        } catch (NumberFormatException e) {
            return 1;
        }
    }

    /** Waits, or less when the worker is stopped, so closing never waits out a long backoff. */
    private void pause(Duration duration) {
        try {
            stopped.await(duration.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The token's role does not allow what the worker asked (403, or a role known to be too narrow). */
    private static final class Forbidden extends RuntimeException {
        Forbidden(String message) {
            super(message, null, false, false);
        }
    }

    /** The gateway asked to wait ({@code Retry-After}). */
    private static final class RetryLater extends RuntimeException {
        private final Duration wait;

        RetryLater(Duration wait) {
            super(null, null, false, false);
            this.wait = wait;
        }
    }
}
