package dev.sopline.worker;

import dev.sopline.schemas.definition.StepType;
import dev.sopline.schemas.topic.Topics;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * A running automated worker. Build one, register a {@link StepHandler} per {@code run} reference, start it:
 *
 * <pre>{@code
 * SopWorker worker = SopWorker.builder()
 *         .kafka("localhost:29092")
 *         .group("billing-workers")
 *         .handle("billing.charge", step -> Map.of("receipt", "r-" + step.input("amount")))
 *         .concurrency(4)
 *         .start();
 * }</pre>
 *
 * <p>In Kafka mode the workers of one group share the steps: start as many processes as the load needs. A step goes
 * to the topic of its {@code run} reference's namespace, the part before the first dot ({@code billing.charge} →
 * {@code sop.steps.automated.billing}; no dot → {@code sop.steps.automated.default}), and a worker reads the topics of
 * its handlers' namespaces only; it runs the steps whose {@code run} it has a handler for, so all members of a group
 * should register the same handlers. In HTTP mode ({@link Builder#http}) the worker polls the gateway instead.
 */
public final class SopWorker implements AutoCloseable {

    private final Thread thread;
    private final java.util.function.Consumer<Duration> stopper;
    private final Duration closeTimeout;
    private final Connection connection;

    private SopWorker(Thread thread, java.util.function.Consumer<Duration> stopper, Duration closeTimeout, Connection connection) {
        this.thread = thread;
        this.stopper = stopper;
        this.closeTimeout = closeTimeout;
        this.connection = connection;
    }

    /**
     * Waits until a Kafka worker has reached its broker; true at once in HTTP mode, which reports an unreachable
     * gateway in its log as it polls. A worker keeps trying in the background whatever this answers, and logs why
     * it cannot connect.
     */
    public boolean awaitConnected(Duration timeout) throws InterruptedException {
        return connection.await(timeout);
    }

    @FunctionalInterface
    private interface Connection {
        boolean await(Duration timeout) throws InterruptedException;
    }

    public static Builder builder() {
        return new Builder();
    }

    public boolean isRunning() {
        return thread.isAlive();
    }

    /** Stops taking steps, lets in-flight ones finish and report within the close timeout, then leaves. */
    @Override
    public void close() {
        close(closeTimeout);
    }

    /**
     * Stops taking steps and waits up to {@code timeout} for in-flight ones; steps that do not finish in time are not
     * acknowledged, so another worker gets them.
     */
    public void close(Duration timeout) {
        stopper.accept(timeout);
        try {
            thread.join(timeout.plusSeconds(10).toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Settings of a worker; {@link #start()} runs it on a thread of its own. */
    public static final class Builder {
        private final Map<String, StepHandler> handlers = new LinkedHashMap<>();
        private StepType stepType = StepType.AUTOMATED;
        private StepResolver resolver;
        private String bootstrapServers;
        private String gatewayUrl;
        private String token;
        private String group = "sop-workers";
        private int concurrency = 4;
        private Duration closeTimeout = Duration.ofSeconds(30);
        private String workerId;
        private String staticMemberId;
        private boolean readPreviousTopic = true;
        private ReadAhead readAhead = ReadAhead.none();
        private boolean resultsToCommandTopic = true;

        private Builder() {}

        /** Kafka mode: consume step-ready events from these bootstrap servers. */
        public Builder kafka(String bootstrapServers) {
            this.bootstrapServers = Objects.requireNonNull(bootstrapServers);
            return this;
        }

        /** HTTP mode: poll the gateway at {@code baseUrl} with a workspace token. */
        public Builder http(String baseUrl, String token) {
            this.gatewayUrl = Objects.requireNonNull(baseUrl);
            this.token = Objects.requireNonNull(token);
            return this;
        }

        /** Kafka consumer group; workers in one group share the steps. Default {@code sop-workers}. */
        public Builder group(String group) {
            this.group = Objects.requireNonNull(group);
            return this;
        }

        /** Registers the handler of one {@code run} reference. */
        public Builder handle(String run, StepHandler handler) {
            handlers.put(Objects.requireNonNull(run), Objects.requireNonNull(handler));
            return this;
        }

        /**
         * Resolves every step of {@code type} with {@code resolver} instead of per-{@code run} handlers: the form an
         * agent takes, since it reports a decision with the outputs. Kafka mode only.
         */
        public Builder resolveAll(StepType type, StepResolver resolver) {
            this.stepType = Objects.requireNonNull(type);
            this.resolver = Objects.requireNonNull(resolver);
            return this;
        }

        /** Steps run at the same time by this worker. Default 4. */
        public Builder concurrency(int concurrency) {
            if (concurrency < 1) {
                throw new IllegalArgumentException("Expected a concurrency of at least 1, but got " + concurrency);
            }
            this.concurrency = concurrency;
            return this;
        }

        /** How long {@link SopWorker#close()} waits for in-flight steps. Default 30 s. */
        public Builder closeTimeout(Duration closeTimeout) {
            this.closeTimeout = Objects.requireNonNull(closeTimeout);
            return this;
        }

        /**
         * Whether a Kafka worker also reads {@code sop.steps.automated}, the one topic of every automated step before
         * steps went to a topic per team, so that steps written there before an upgrade still run. Default true for
         * this release; set false once that topic is drained, or where the worker's credentials grant its team's
         * topic only (docs/decisions.md, "A topic per team").
         */
        public Builder readPreviousTopic(boolean readPreviousTopic) {
            this.readPreviousTopic = readPreviousTopic;
            return this;
        }

        /**
         * Kafka mode: whether results and heartbeats go straight to the engine's command topic, one produce-and-fetch
         * hop sooner at every step than through {@code sop.step-results} and the engines' relay. The engine takes an
         * unsigned record there only as a worker's result, its result key checked, so this grants a worker nothing
         * more. Where the broker's ACLs refuse it that topic, the worker goes over to {@code sop.step-results} at the
         * first refusal, losing nothing. Default true; false writes to {@code sop.step-results} only.
         */
        public Builder resultsToCommandTopic(boolean toCommandTopic) {
            this.resultsToCommandTopic = toCommandTopic;
            return this;
        }

        /**
         * Kafka mode: serve the workspaces whose steps share this worker's topics in turn, rather than in the order
         * their steps were written, reading up to {@code maxSteps} steps ({@code maxBytes} of records) ahead of its
         * slots to find the others' steps. One workspace's backlog then delays another's steps by at most one step
         * per slot, as long as the backlog fits in the read-ahead. The cost: after a crash, up to that many steps
         * already run may be handed out again (their handlers run again; the engine keeps one result per attempt).
         * Default: none, first written, first run.
         */
        public Builder fairAcrossWorkspaces(int maxSteps, long maxBytes) {
            this.readAhead = ReadAhead.fairAcrossWorkspaces(maxSteps, maxBytes);
            return this;
        }

        /** Names this worker in results and logs. Default: host, process id and a random suffix. */
        public Builder workerId(String workerId) {
            this.workerId = Objects.requireNonNull(workerId);
            return this;
        }

        /**
         * Kafka mode: makes this worker a static member of its group ({@code group.instance.id}), under an id that stays
         * the same when it is restarted. Restarted after a crash, it takes its partitions back at once; without one, the
         * steps of the partitions its dead self held wait until that member's session ends (45 s by Kafka's default).
         * Keep the id where the worker's restarts find it again (a file on its volume, a stable pod name) and give
         * each running worker of a group its own: a worker that joins with an id in use fences the one that had it,
         * which stops and logs why. A worker stopped with {@link SopWorker#close()} still leaves its group, so its
         * partitions go to the others at once. Default: none (a dynamic member).
         */
        public Builder staticMember(String memberId) {
            if (memberId == null || memberId.isBlank()) {
                throw new IllegalArgumentException("Expected a static member id that is not blank");
            }
            this.staticMemberId = memberId.strip();
            return this;
        }

        public SopWorker start() {
            if (handlers.isEmpty() == (resolver == null)) {
                throw new IllegalStateException("Expected handlers registered with handle(run, handler), or one resolveAll(type, resolver)");
            }
            if (resolver != null && bootstrapServers == null) {
                throw new IllegalStateException("Expected kafka(...) with resolveAll(...)");
            }
            if ((bootstrapServers == null) == (gatewayUrl == null)) {
                throw new IllegalStateException("Expected exactly one of kafka(...) or http(...)");
            }
            if (readAhead.fair() && bootstrapServers == null) {
                throw new IllegalStateException("Expected kafka(...) with fairAcrossWorkspaces(...): an HTTP worker serves the one workspace of its token");
            }
            if (staticMemberId != null && bootstrapServers == null) {
                throw new IllegalStateException("Expected kafka(...) with staticMember(...): an HTTP worker is in no group");
            }
            String id = workerId != null ? workerId : ManagementFactory.getRuntimeMXBean().getName() + "-" + UUID.randomUUID().toString().substring(0, 8);
            Thread thread;
            java.util.function.Consumer<Duration> stopper;
            Connection connection;
            if (bootstrapServers != null) {
                Map<String, StepHandler> registered = Map.copyOf(handlers);
                KafkaStepWorker worker = resolver != null
                        ? new KafkaStepWorker(bootstrapServers, group, StepTopics.forType(stepType), ready -> true, resolver, concurrency, id,
                                staticMemberId, readAhead)
                        : new KafkaStepWorker(bootstrapServers, group, StepTopics.forHandlers(registered.keySet(), readPreviousTopic),
                                ready -> ready.run() != null && registered.containsKey(ready.run()), null, concurrency, id, staticMemberId, readAhead)
                                .withHandlers(registered);
                worker.withResultsToCommandTopic(resultsToCommandTopic);
                thread = new Thread(worker, "sop-worker-" + id);
                stopper = worker::stop;
                connection = worker::awaitConnected;
            } else {
                HttpStepWorker worker = new HttpStepWorker(gatewayUrl, token, handlers, concurrency, closeTimeout);
                thread = new Thread(worker, "sop-http-worker-" + id);
                stopper = worker::stop;
                connection = timeout -> true;
            }
            thread.start();
            return new SopWorker(thread, stopper, closeTimeout, connection);
        }
    }
}
