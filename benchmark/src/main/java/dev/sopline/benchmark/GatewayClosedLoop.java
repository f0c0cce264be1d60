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
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import tools.jackson.databind.JsonNode;

/**
 * Instances as users run them: started through {@code POST /sop/:name/start} by a closed loop of C clients, each
 * starting its next instance once the previous one shows {@code completed} through {@code GET /sop/:name/:id}; the
 * three no-op steps run by one automated worker of the SDK in Kafka mode, 32 steps at once, in this JVM.
 *
 * <p>A client reads the instance back as soon as its start is answered, with {@code GET /sop/:name/:id?wait=30}: the
 * gateway holds the read until the instance settles (here: completes), so it learns of the completion as soon as a
 * read could show it, with one read per instance instead of a poll whose reads grow with the queueing they measure.
 * The reads are counted.
 */
final class GatewayClosedLoop implements AutoCloseable {

    static final int WORKER_CONCURRENCY = 32;
    private static final Duration INSTANCE_LIMIT = Duration.ofSeconds(60);
    private static final int WAIT_S = 30;

    private final String baseUrl;
    private final String token;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final Map<String, Timeline> timelines = new ConcurrentHashMap<>();
    private final SopWorker worker;

    /**
     * Joins {@code group}, the group the engine's batch worked in, so the worker takes up the step topic where that
     * batch left it rather than from its beginning.
     */
    GatewayClosedLoop(String baseUrl, String token, String bootstrap, String group) {
        this.baseUrl = baseUrl;
        this.token = token;
        this.worker = SopWorker.builder().kafka(bootstrap).group(group).concurrency(WORKER_CONCURRENCY)
                .handle("bench.a", step -> handled(step.instanceId(), 0))
                .handle("bench.b", step -> handled(step.instanceId(), 1))
                .handle("bench.c", step -> handled(step.instanceId(), 2))
                .start();
    }

    /** One instance as the client and the worker see it, in {@link System#nanoTime()}; 0 until it happens. */
    private static final class Timeline {
        volatile long sent;
        volatile long answered;
        final long[] stepAt = new long[3];
        volatile long completed;
    }

    private Map<String, Object> handled(String instanceId, int step) {
        // The step may reach the worker before the start's answer reaches its client: whichever comes first creates it.
        Timeline timeline = timelines.computeIfAbsent(instanceId, ignored -> new Timeline());
        synchronized (timeline.stepAt) {
            if (timeline.stepAt[step] == 0) {
                timeline.stepAt[step] = System.nanoTime();
            }
        }
        return Map.of("out", "v" + step);
    }

    /** Starts {@code concurrency} clients; measure between {@link Loop#beginMeasuring()} and {@link Loop#endMeasuring()}. */
    Loop start(int concurrency) {
        timelines.clear();
        return new Loop(concurrency);
    }

    final class Loop implements AutoCloseable {
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final List<Thread> clients = new ArrayList<>();
        private final List<Timeline> measured = java.util.Collections.synchronizedList(new ArrayList<>());
        private volatile long measuringFrom = Long.MAX_VALUE;
        private volatile long measuringUntil = Long.MAX_VALUE;
        private final AtomicInteger startErrors = new AtomicInteger();
        private final AtomicInteger unfinished = new AtomicInteger();
        private final AtomicLong readsOfMeasured = new AtomicLong();
        private final AtomicLong completedInWindow = new AtomicLong();

        private Loop(int concurrency) {
            for (int i = 0; i < concurrency; i++) {
                Thread client = new Thread(this::runClient, "closed-loop-client-" + i);
                client.start();
                clients.add(client);
            }
        }

        void beginMeasuring() {
            measuringFrom = System.nanoTime();
        }

        void endMeasuring() {
            measuringUntil = System.nanoTime();
        }

        private void runClient() {
            while (running.get()) {
                try {
                    runOne();
                } catch (InterruptedException e) {
                    return;
                } catch (Exception e) {
                    startErrors.incrementAndGet();
                }
            }
        }

        private void runOne() throws Exception {
            long sent = System.nanoTime();
            HttpResponse<String> started = http.send(request("/sop/" + EngineRun.PROCESS_NAME + "/start")
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"inputs\": {\"n\": 1}}")).build(), HttpResponse.BodyHandlers.ofString());
            long answered = System.nanoTime();
            if (started.statusCode() != 201) {
                startErrors.incrementAndGet();
                Thread.sleep(10); // do not spin on a gateway that refuses
                return;
            }
            String id = Json.mapper().readTree(started.body()).path("id").asString();
            Timeline timeline = timelines.computeIfAbsent(id, ignored -> new Timeline());
            timeline.sent = sent;
            timeline.answered = answered;
            boolean inWindow = sent >= measuringFrom && sent < measuringUntil;
            int reads = awaitCompletedThroughGet(id, timeline, sent + INSTANCE_LIMIT.toNanos());
            if (inWindow) {
                readsOfMeasured.addAndGet(reads);
            }
            long completed = timeline.completed;
            if (completed >= measuringFrom && completed < measuringUntil) {
                // Throughput counts every completion while measuring, whenever its instance started.
                completedInWindow.incrementAndGet();
            }
            if (inWindow) {
                measured.add(timeline);
                if (timeline.completed == 0) {
                    unfinished.incrementAndGet();
                }
            }
            timelines.remove(id);
        }

        /** Reads the instance, each read waiting for it to settle, until it shows a final state; returns how many reads it took. */
        private int awaitCompletedThroughGet(String id, Timeline timeline, long deadline) throws Exception {
            int reads = 0;
            while (System.nanoTime() < deadline) {
                HttpResponse<String> read = http.send(request("/sop/" + EngineRun.PROCESS_NAME + "/" + id + "?wait=" + WAIT_S)
                                .timeout(Duration.ofSeconds(WAIT_S + 15)).GET().build(), HttpResponse.BodyHandlers.ofString());
                reads++;
                if (read.statusCode() == 200) {
                    JsonNode instance = Json.mapper().readTree(read.body());
                    String state = instance.path("state").asString();
                    if ("completed".equals(state)) {
                        timeline.completed = System.nanoTime();
                        return reads;
                    }
                    if (!"running".equals(state) && !"pending".equals(state)) {
                        // Failed, cancelled, or waiting on someone (not in this process): another wait would answer at once.
                        return reads;
                    }
                } else {
                    // 429 or 503: the answer came at once, so pause before asking again.
                    Thread.sleep(100);
                }
            }
            return reads;
        }

        private HttpRequest.Builder request(String path) {
            return HttpRequest.newBuilder(URI.create(baseUrl + path)).header("X-SOP-Token", token).timeout(Duration.ofSeconds(30));
        }

        /** Stops starting instances and waits for those in flight. */
        @Override
        public void close() throws InterruptedException {
            running.set(false);
            for (Thread client : clients) {
                client.join(INSTANCE_LIMIT.toMillis() * 2);
            }
        }

        /** What the clients saw of the instances they started while measuring; call after {@link #close()}. */
        Result result() {
            List<Timeline> all;
            synchronized (measured) {
                all = new ArrayList<>(measured);
            }
            Latencies startCall = new Latencies();
            Latencies toFirstStep = new Latencies();
            Latencies handoff = new Latencies();
            Latencies toCompleted = new Latencies();
            for (Timeline timeline : all) {
                startCall.record(timeline.answered - timeline.sent);
                long[] steps;
                synchronized (timeline.stepAt) {
                    steps = timeline.stepAt.clone();
                }
                if (steps[0] > 0) {
                    toFirstStep.record(steps[0] - timeline.sent);
                }
                if (steps[0] > 0 && steps[1] > 0 && steps[2] > 0) {
                    handoff.record(steps[1] - steps[0]);
                    handoff.record(steps[2] - steps[1]);
                }
                if (timeline.completed > 0) {
                    toCompleted.record(timeline.completed - timeline.sent);
                }
            }
            double seconds = (measuringUntil - measuringFrom) / 1e9;
            return new Result(clients.size(), all.size(), completedInWindow.get(), completedInWindow.get() / seconds, startCall, toFirstStep,
                    handoff, toCompleted, startErrors.get(), unfinished.get(), all.isEmpty() ? 0 : readsOfMeasured.get() / (double) all.size());
        }
    }

    /**
     * @param started instances started while measuring
     * @param completedInWindow instances seen completed while measuring, whenever started: the throughput's numerator
     * @param readsPerInstance {@code GET}s per instance started while measuring, until it showed completed
     */
    record Result(int concurrency, int started, long completedInWindow, double instancesPerSecond, Latencies startCall,
                  Latencies startToFirstStep, Latencies handoff, Latencies startToCompleted, int startErrors, int unfinished,
                  double readsPerInstance) {}

    @Override
    public void close() {
        worker.close(Duration.ofSeconds(5));
    }
}
