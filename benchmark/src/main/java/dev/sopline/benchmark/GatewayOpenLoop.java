package dev.sopline.benchmark;

import dev.sopline.schemas.json.Json;
import dev.sopline.worker.SopWorker;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * {@code POST /sop/:name/start} at a fixed rate, whatever the answers: the open loop of wrk2. Request {@code i} is
 * due at {@code i / rate} seconds and sent then, asynchronously, so a slow answer neither delays the next request nor
 * lowers the offered load; its latency counts from when it was due, not from when it left, so a load generator that
 * fell behind shows as latency instead of hiding it (coordinated omission). The latencies go into an HdrHistogram,
 * which micrometer-core already brings. The three no-op steps of each instance are run by one automated worker of the
 * SDK in Kafka mode, 32 steps at once, as in the closed loop; completions are read on {@code sop.events}, where they are the only ones while this runs.
 */
final class GatewayOpenLoop implements AutoCloseable {

    private static final Duration ANSWER_LIMIT = Duration.ofSeconds(30);
    /** After the measured window, how long instances started in it may take to complete before they count as unfinished. */
    private static final Duration DRAIN_LIMIT = Duration.ofSeconds(60);

    private final String baseUrl;
    private final String token;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final SopWorker worker;
    private final CompletionFeed completions;

    /** Joins {@code group}, as the closed loop does, so the worker takes up the step topic where earlier cases left it. */
    GatewayOpenLoop(String baseUrl, String token, String bootstrap, String group) throws InterruptedException {
        this.baseUrl = baseUrl;
        this.token = token;
        this.completions = new CompletionFeed(bootstrap, "read_committed", id -> true, "open-loop-events");
        this.worker = SopWorker.builder().kafka(bootstrap).group(group).concurrency(GatewayClosedLoop.WORKER_CONCURRENCY)
                .handle("bench.a", step -> Map.of("out", "v0"))
                .handle("bench.b", step -> Map.of("out", "v1"))
                .handle("bench.c", step -> Map.of("out", "v2"))
                .start();
    }

    /**
     * @param achievedRequestsPerSecond requests sent in the window over its length: below the rate only if the sender fell behind
     * @param startCall from each request's due time to its answer, in nanoseconds
     * @param errors requests of the window answered other than 201, failed or not answered within 30 s, by status or exception
     * @param completed instances started in the window that completed, by the window's end plus up to 60 s
     * @param completedInWindow completions seen during the window, whenever started: the numerator of CPU per instance
     */
    record Result(int rate, int requests, double achievedRequestsPerSecond, Histogram startCall, Map<String, Integer> errors,
                  long completed, long completedInWindow) {

        int errorCount() {
            return errors.values().stream().mapToInt(Integer::intValue).sum();
        }
    }

    /**
     * Sends at {@code rate} requests per second for {@code warmUp}, unmeasured, then for {@code duration}, measured.
     * {@code onMeasuringStart} and {@code onMeasuringEnd} run on a thread of their own, so the sender keeps its schedule.
     */
    Result run(int rate, Duration warmUp, Duration duration, Runnable onMeasuringStart, Runnable onMeasuringEnd) throws Exception {
        long period = TimeUnit.SECONDS.toNanos(1) / rate;
        long warmUpRequests = warmUp.toNanos() / period;
        long measuredRequests = duration.toNanos() / period;
        Histogram startCall = new ConcurrentHistogram(TimeUnit.MINUTES.toNanos(1), 3);
        Map<String, Integer> errors = new ConcurrentHashMap<>();
        List<CompletableFuture<?>> answers = new ArrayList<>();
        List<String> measuredIds = java.util.Collections.synchronizedList(new ArrayList<>());
        long firstDue = System.nanoTime();
        long windowStart = firstDue + warmUpRequests * period;
        long windowEnd = windowStart + measuredRequests * period;
        long lastSent = 0;
        ExecutorService aside = Executors.newSingleThreadExecutor();
        for (long i = 0; i < warmUpRequests + measuredRequests; i++) {
            long due = firstDue + i * period;
            if (i == warmUpRequests) {
                aside.execute(onMeasuringStart);
            }
            for (long wait = due - System.nanoTime(); wait > 0; wait = due - System.nanoTime()) {
                LockSupport.parkNanos(wait);
            }
            if (i < warmUpRequests) {
                http.sendAsync(startRequest(), HttpResponse.BodyHandlers.discarding());
                continue;
            }
            answers.add(http.sendAsync(startRequest(), HttpResponse.BodyHandlers.ofString()).whenComplete((response, error) -> {
                startCall.recordValue(Math.min(System.nanoTime() - due, startCall.getHighestTrackableValue()));
                if (error == null && response.statusCode() == 201) {
                    measuredIds.add(Json.mapper().readTree(response.body()).path("id").asString());
                } else {
                    String kind = error == null ? "HTTP " + response.statusCode() : rootCause(error).getClass().getSimpleName();
                    errors.merge(kind, 1, Integer::sum);
                }
            }));
            lastSent = System.nanoTime();
        }
        // The last request is due one period before the window's end; the window ends on schedule, not on the sender.
        LockSupport.parkNanos(Math.max(0, windowEnd - System.nanoTime()));
        aside.submit(onMeasuringEnd).get();
        aside.shutdown();
        long sentWindow = Math.max(lastSent, windowEnd) - windowStart;
        CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new)).exceptionally(ignored -> null).join();
        long completedInWindow = completions.completedAt().values().stream().filter(at -> at >= windowStart && at < windowEnd).count();
        completions.awaitAll(measuredIds, System.nanoTime() + DRAIN_LIMIT.toNanos());
        long completed = measuredIds.stream().filter(completions.completedAt()::containsKey).count();
        return new Result(rate, answers.size(), answers.size() / (sentWindow / 1e9), startCall, new TreeMap<>(errors), completed,
                completedInWindow);
    }

    private static Throwable rootCause(Throwable error) {
        return error.getCause() == null ? error : rootCause(error.getCause());
    }

    private HttpRequest startRequest() {
        return HttpRequest.newBuilder(URI.create(baseUrl + "/sop/" + EngineRun.PROCESS_NAME + "/start"))
                .header("X-SOP-Token", token)
                .header("Content-Type", "application/json")
                .timeout(ANSWER_LIMIT)
                .POST(HttpRequest.BodyPublishers.ofString("{\"inputs\": {\"n\": 1}}"))
                .build();
    }

    @Override
    public void close() throws InterruptedException {
        worker.close(Duration.ofSeconds(5));
        completions.close();
    }
}
