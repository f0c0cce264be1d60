package dev.sopline.benchmark;

import dev.sopline.schemas.json.Json;
import dev.sopline.worker.SopWorker;
import java.time.Duration;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * Instances as users run them: started through {@code POST /sop/:name/start} by a {@link ClosedLoop} of C clients,
 * each starting its next instance once the previous one shows {@code completed} through {@code GET /sop/:name/:id};
 * the three no-op steps run by one automated worker of the SDK in Kafka mode, 32 steps at once, in this JVM.
 *
 * <p>A client reads the instance back as soon as its start is answered, with {@code GET /sop/:name/:id?wait=30}: the
 * gateway holds the read until the instance settles (here: completes), so it learns of the completion as soon as a
 * read could show it, with one read per instance instead of a poll whose reads grow with the queueing they measure.
 * The reads are counted.
 *
 * <p>Each client makes its calls on its own thread, through {@link BlockingHttp}.
 */
final class GatewayClosedLoop implements ClosedLoop.InstanceClient, AutoCloseable {

    static final int WORKER_CONCURRENCY = 32;
    private static final int WAIT_S = 30;

    private final String baseUrl;
    private final String token;
    private final BlockingHttp http;
    private final ClosedLoop loop = new ClosedLoop(this);
    private final SopWorker worker;

    /**
     * Joins {@code group}, the group the engine's batch worked in, so the worker takes up the step topic where that
     * batch left it rather than from its beginning.
     */
    GatewayClosedLoop(String baseUrl, String token, String bootstrap, String group, BlockingHttp http) {
        this.baseUrl = baseUrl;
        this.token = token;
        this.http = http;
        this.worker = SopWorker.builder().kafka(bootstrap).group(group).concurrency(WORKER_CONCURRENCY)
                .handle("bench.a", step -> handled(step.instanceId(), 0))
                .handle("bench.b", step -> handled(step.instanceId(), 1))
                .handle("bench.c", step -> handled(step.instanceId(), 2))
                .start();
    }

    private Map<String, Object> handled(String instanceId, int step) {
        loop.stepRan(instanceId, step);
        return Map.of("out", "v" + step);
    }

    /** Starts {@code concurrency} clients; measure between {@link ClosedLoop.Loop#beginMeasuring()} and {@link ClosedLoop.Loop#endMeasuring()}. */
    ClosedLoop.Loop start(int concurrency) {
        return loop.start(concurrency);
    }

    @Override
    public String start() throws Exception {
        BlockingHttp.Answer started = http.send("POST", baseUrl + "/sop/" + EngineRun.PROCESS_NAME + "/start", token,
                "{\"inputs\": {\"n\": 1}}", Duration.ofSeconds(30));
        return started.status() == 201 ? Json.mapper().readTree(started.body()).path("id").asString() : null;
    }

    /** Reads the instance, each read waiting for it to settle, until it shows a final state. */
    @Override
    public ClosedLoop.ReadBack awaitCompleted(String id, long deadline) throws Exception {
        int reads = 0;
        while (System.nanoTime() < deadline) {
            BlockingHttp.Answer read = http.send("GET", baseUrl + "/sop/" + EngineRun.PROCESS_NAME + "/" + id + "?wait=" + WAIT_S, token,
                    null, Duration.ofSeconds(WAIT_S + 15));
            reads++;
            if (read.status() == 200) {
                JsonNode instance = Json.mapper().readTree(read.body());
                String state = instance.path("state").asString();
                if ("completed".equals(state)) {
                    return new ClosedLoop.ReadBack(reads, true);
                }
                if (!"running".equals(state) && !"pending".equals(state)) {
                    // Failed, cancelled, or waiting on someone (not in this process): another wait would answer at once.
                    return new ClosedLoop.ReadBack(reads, false);
                }
            } else {
                // 429 or 503: the answer came at once, so pause before asking again.
                Thread.sleep(100);
            }
        }
        return new ClosedLoop.ReadBack(reads, false);
    }

    @Override
    public void close() {
        worker.close(Duration.ofSeconds(5));
    }
}
