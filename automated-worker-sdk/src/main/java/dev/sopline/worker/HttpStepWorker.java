package dev.sopline.worker;

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
 * {@code Retry-After} says, and backs off exponentially when the gateway cannot be reached. Two HTTP workers may
 * pick the same step; the engine accepts the first submit and the other gets 422, which is not an error here.
 */
final class HttpStepWorker implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(HttpStepWorker.class);
    private static final Duration IDLE = Duration.ofMillis(500);
    private static final Duration MAX_BACKOFF = Duration.ofSeconds(30);

    private final String baseUrl;
    private final String token;
    private final Map<String, StepHandler> handlers;
    private final int concurrency;
    private final Duration closeTimeout;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final ExecutorService pool;
    private final AtomicBoolean running = new AtomicBoolean(true);

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
        while (running.get()) {
            try {
                int handled = 0;
                for (String run : handlers.keySet()) {
                    handled += pollOnce(run);
                }
                backoff = Duration.ofMillis(250);
                if (handled == 0) {
                    sleep(IDLE);
                }
            } catch (RetryLater e) {
                sleep(e.wait);
            } catch (IOException e) {
                LOG.warn("Gateway {} unreachable: {}; retrying in {} ms", baseUrl, e.getMessage(), backoff.toMillis());
                sleep(backoff);
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
    }

    private int pollOnce(String run) throws IOException, InterruptedException {
        HttpResponse<String> response = send(HttpRequest.newBuilder(URI.create(baseUrl + "/sop/steps/pending?type=automated&limit="
                + concurrency + "&run=" + URLEncoder.encode(run, StandardCharsets.UTF_8))).GET());
        JsonNode steps = Json.mapper().readTree(response.body());
        List<Future<?>> running = new java.util.ArrayList<>();
        for (JsonNode step : steps) {
            running.add(pool.submit(() -> resolve(step, handlers.get(run))));
        }
        for (Future<?> future : running) {
            try {
                future.get();
            } catch (java.util.concurrent.ExecutionException e) {
                LOG.warn("Submitting a step failed: {}", e.getCause().getMessage());
            }
        }
        return steps.size();
    }

    @SuppressWarnings("unchecked")
    private Void resolve(JsonNode step, StepHandler handler) throws IOException, InterruptedException {
        StepContext context = new StepContext(null, step.path("instance_id").asString(), step.path("process").asString(),
                step.path("version").asString(), step.path("step_id").asString(), step.path("run").asString(), step.path("attempt").asInt(),
                Json.mapper().convertValue(step.path("inputs"), LinkedHashMap.class));
        StepOutcome outcome = StepOutcome.run(handler, context);
        Map<String, Object> body = new LinkedHashMap<>();
        if (outcome instanceof StepOutcome.Completed completed) {
            body.put("outputs", completed.outputs());
        } else {
            StepError error = ((StepOutcome.Failed) outcome).error();
            body.put("error", Map.of("code", error.code(), "message", error.message() == null ? "" : error.message()));
        }
        String path = "/sop/%s/%s/steps/%s/submit".formatted(context.process(), context.instanceId(), context.stepId());
        HttpResponse<String> response = send(HttpRequest.newBuilder(URI.create(baseUrl + path))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(Json.mapper().writeValueAsBytes(body))));
        if (response.statusCode() == 422) {
            LOG.debug("Step {} of {} was resolved elsewhere: {}", context.stepId(), context.instanceId(), response.body());
        }
        return null;
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
        return response;
    }

    private static long seconds(String header) {
        try {
            return Long.parseLong(header.trim());
        } catch (NumberFormatException e) {
            return 1;
        }
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
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
