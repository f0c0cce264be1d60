package dev.sopline.benchmark;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.littlehorse.sdk.common.config.LHConfig;
import io.littlehorse.sdk.common.proto.AwaitWorkflowEventRequest;
import io.littlehorse.sdk.common.proto.LittleHorseGrpc.LittleHorseBlockingStub;
import io.littlehorse.sdk.common.proto.PutWorkflowEventDefRequest;
import io.littlehorse.sdk.common.proto.RunWfRequest;
import io.littlehorse.sdk.common.proto.WfRunId;
import io.littlehorse.sdk.common.proto.WorkflowEventDefId;
import io.littlehorse.sdk.wfsdk.Workflow;
import io.littlehorse.sdk.worker.LHTaskMethod;
import io.littlehorse.sdk.worker.LHTaskWorker;
import io.littlehorse.sdk.worker.WorkerContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * The closed loop of {@link GatewayClosedLoop}, run against LittleHorse through its own public API and worker
 * library: each client starts a {@code WfRun} of three sequential no-op tasks with {@code RunWf}, then waits for it
 * with {@code AwaitWorkflowEvent}, one long-held read per instance as the gateway's {@code ?wait=} is, for an event the
 * workflow throws once its third task is done. The tasks run in LittleHorse's task workers in this JVM, 32 at once
 * per task, as the platform's SDK worker runs 32 steps at once.
 */
final class LittleHorseClosedLoop implements ClosedLoop.InstanceClient, AutoCloseable {

    static final String WORKFLOW = "bench-lh";
    private static final String DONE_EVENT = "bench-lh-done";
    private static final String[] TASKS = {"bench-lh-a", "bench-lh-b", "bench-lh-c"};

    private final LittleHorseBlockingStub client;
    private final ClosedLoop loop = new ClosedLoop(this);
    private final List<LHTaskWorker> workers = new ArrayList<>();

    LittleHorseClosedLoop(String apiHost, int apiPort) {
        Properties props = new Properties();
        props.put(LHConfig.API_HOST_KEY, apiHost);
        props.put(LHConfig.API_PORT_KEY, String.valueOf(apiPort));
        // Two poll threads (the library's default) with 16 polls in flight each: 32 tasks at once per task definition.
        props.put(LHConfig.NUM_WORKER_THREADS_KEY, "2");
        props.put(LHConfig.INFLIGHT_TASKS_KEY, "16");
        LHConfig config = new LHConfig(props);
        this.client = config.getBlockingStub();
        for (int step = 0; step < TASKS.length; step++) {
            workers.add(new LHTaskWorker(new NoOpTask(step), TASKS[step], config));
        }
        whenServing(() -> {
            for (LHTaskWorker worker : workers) {
                worker.registerTaskDef();
            }
            client.putWorkflowEventDef(PutWorkflowEventDefRequest.newBuilder().setName(DONE_EVENT).build());
            Workflow.newWorkflow(WORKFLOW, wf -> {
                for (String task : TASKS) {
                    wf.execute(task);
                }
                wf.throwEvent(DONE_EVENT, "done");
            }).registerWfSpec(client);
        });
        workers.forEach(LHTaskWorker::start);
    }

    /**
     * Runs {@code registration} once LittleHorse's API serves it: its readiness endpoint answers while the API still
     * says {@code UNAVAILABLE: Server Initializing}. Registrations are idempotent, so a retry after a partial one is safe.
     */
    private static void whenServing(Runnable registration) {
        long deadline = System.nanoTime() + java.time.Duration.ofSeconds(120).toNanos();
        while (true) {
            try {
                registration.run();
                return;
            } catch (StatusRuntimeException e) {
                if (e.getStatus().getCode() != Status.Code.UNAVAILABLE || System.nanoTime() > deadline) {
                    throw e;
                }
                try {
                    Thread.sleep(500);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }

    /** One of the three tasks; LittleHorse finds the method by its annotation, whose name must be a constant. */
    public final class NoOpTask {
        private final int step;

        NoOpTask(int step) {
            this.step = step;
        }

        @LHTaskMethod("bench-lh-a")
        public String a(WorkerContext context) {
            return ran(context);
        }

        @LHTaskMethod("bench-lh-b")
        public String b(WorkerContext context) {
            return ran(context);
        }

        @LHTaskMethod("bench-lh-c")
        public String c(WorkerContext context) {
            return ran(context);
        }

        private String ran(WorkerContext context) {
            loop.stepRan(context.getWfRunId().getId(), step);
            return "v" + step;
        }
    }

    ClosedLoop.Loop start(int concurrency) {
        return loop.start(concurrency);
    }

    /** The id of the started {@code WfRun}; null when LittleHorse refused it (counted as a start error). */
    @Override
    public String start() {
        try {
            return client.withDeadlineAfter(30, TimeUnit.SECONDS).runWf(RunWfRequest.newBuilder().setWfSpecName(WORKFLOW).build())
                    .getId().getId();
        } catch (StatusRuntimeException refused) {
            return null;
        }
    }

    @Override
    public ClosedLoop.ReadBack awaitCompleted(String id, long deadline) throws InterruptedException {
        int reads = 0;
        while (System.nanoTime() < deadline) {
            reads++;
            try {
                client.withDeadlineAfter(deadline - System.nanoTime(), TimeUnit.NANOSECONDS)
                        .awaitWorkflowEvent(AwaitWorkflowEventRequest.newBuilder().setWfRunId(WfRunId.newBuilder().setId(id))
                                // Named: a request that names no event definition was not answered by 1.2.1 here.
                                .addEventDefIds(WorkflowEventDefId.newBuilder().setName(DONE_EVENT)).build());
                return new ClosedLoop.ReadBack(reads, true);
            } catch (StatusRuntimeException e) {
                if (e.getStatus().getCode() == Status.Code.DEADLINE_EXCEEDED) {
                    return new ClosedLoop.ReadBack(reads, false);
                }
                // Anything else (the server busy, a rebalance) came at once: pause, then ask again.
                Thread.sleep(100);
            }
        }
        return new ClosedLoop.ReadBack(reads, false);
    }

    @Override
    public void close() {
        workers.forEach(LHTaskWorker::close);
    }
}
