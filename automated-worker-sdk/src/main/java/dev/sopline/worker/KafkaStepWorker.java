package dev.sopline.worker;

import dev.sopline.schemas.command.ErrorCodes;
import dev.sopline.schemas.event.StepReady;
import dev.sopline.schemas.event.StepResult;
import dev.sopline.schemas.instance.StepError;
import dev.sopline.schemas.json.Json;
import dev.sopline.schemas.kafka.KafkaClientSecurity;
import dev.sopline.schemas.topic.Topics;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.FencedInstanceIdException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kafka mode: a member of a consumer group on step-ready topics (for handlers, the topics of their teams,
 * {@code sop.steps.automated.<namespace>}; see {@link StepTopics}), run as a pipeline. The poll thread keeps polling
 * and starts each step as soon as one of {@code concurrency} slots is free (pausing its partitions while all are
 * taken), so a slow step holds back no other. Per partition it commits, asynchronously, the highest offset below which
 * every step has reported, so a step's offset is committed only after its result is acknowledged by the broker, and
 * a worker that dies mid-step loses nothing: the group hands the step to another member, with the same attempt
 * number, and the engine keeps one result per attempt. Polling never stops, so a long step does not cost the worker
 * its group membership.
 *
 * <p>A step whose deadline has passed is given up on (see {@link RunningStep#expired}): the engine has already timed
 * the attempt out and decided a new attempt or a failure, so its handler is interrupted, its slot freed and its offset
 * counted as done. The commits carry, per partition, the number of steps running now ({@link InFlightMetadata}),
 * which {@code GET /sop/workers} reads as the group's steps in flight.
 */
final class KafkaStepWorker implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaStepWorker.class);
    private static final Duration POLL = Duration.ofMillis(50);
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(2);
    /** Commits gather the steps done in this long: one request instead of one per step. */
    private static final Duration COMMIT_EVERY = Duration.ofMillis(100);
    /** While steps run, their count is committed again this often, so that readers can tell it from a dead member's. */
    private static final Duration IN_FLIGHT_REFRESH = Duration.ofSeconds(5);
    /** How long a partition taken away waits for its running steps before handing them to its next owner. */
    private static final Duration REVOKE_WAIT = Duration.ofSeconds(2);
    private static final int SEND_ATTEMPTS = 5;

    private final StepTopics topics;
    private StepResolver resolver;
    private final Predicate<StepReady> accepts;
    private final String workerId;
    private final int concurrency;
    private final KafkaConsumer<String, byte[]> consumer;
    private final KafkaProducer<String, byte[]> producer;
    private final HandlerPool pool;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final CountDownLatch connected = new CountDownLatch(1);
    private final Set<String> reportedRuns = ConcurrentHashMap.newKeySet();
    private final String bootstrapServers;
    private volatile long stopDeadlineNanos = Long.MAX_VALUE;

    /** Steps whose handler returned, for the poll thread to settle. */
    private final BlockingQueue<RunningStep> finished = new LinkedBlockingQueue<>();
    /** Running steps by attempt, for their heartbeats. */
    private final Map<String, RunningStep> byAttempt = new ConcurrentHashMap<>();
    // Owned by the poll thread (the rebalance listener runs on it too).
    private final Map<TopicPartition, PartitionProgress> progress = new HashMap<>();
    private final ArrayDeque<RunningStep> waiting = new ArrayDeque<>();
    private final Set<RunningStep> active = new HashSet<>();
    private long lastCommitNanos = System.nanoTime();
    private boolean commitFailed;

    KafkaStepWorker(String bootstrapServers, String group, StepTopics topics, Predicate<StepReady> accepts,
                    StepResolver resolver, int concurrency, String workerId, String staticMemberId) {
        this.topics = topics;
        this.bootstrapServers = bootstrapServers;
        this.accepts = accepts;
        this.resolver = resolver;
        this.workerId = workerId;
        this.concurrency = Math.max(1, concurrency);
        Map<String, Object> consumerConfig = new HashMap<>();
        consumerConfig.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        consumerConfig.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        // Early handoff: a step is taken as soon as the engine writes it, before the engine's transaction commits, so
        // the commit interval is not paid at every step. If that transaction aborts, the engine processes the same
        // commands again and hands out the same step with the same attempt; the result already reported for that
        // attempt is kept and the repeat is ignored, as for any step handed out twice.
        consumerConfig.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_uncommitted");
        consumerConfig.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        consumerConfig.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        // No more than the slots: steps taken and not started wait in this worker, where no other member can run them.
        consumerConfig.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, this.concurrency);
        consumerConfig.put(ConsumerConfig.CLIENT_ID_CONFIG, workerId);
        if (staticMemberId != null) {
            // Restarted after a crash with the same id, the worker takes its partitions back at once (SopWorker.Builder#staticMember).
            consumerConfig.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, staticMemberId);
        }
        // A team's topic is created when its first process is registered: found within this by the pattern subscription.
        consumerConfig.put(ConsumerConfig.METADATA_MAX_AGE_CONFIG, 10_000);
        this.consumer = new KafkaConsumer<>(KafkaClientSecurity.secured(consumerConfig), new StringDeserializer(), new ByteArrayDeserializer());
        this.producer = new KafkaProducer<>(KafkaClientSecurity.secured(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.LINGER_MS_CONFIG, 0,
                // Results finished while a request is out go together in the next one: batching under load, no wait when idle.
                ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1)), new StringSerializer(), new ByteArraySerializer());
        this.pool = new HandlerPool(this.concurrency, workerId);
    }

    @Override
    public void run() {
        try {
            if (!new KafkaPreflight(bootstrapServers, workerId).awaitBroker(topics.names(), running::get)) {
                return;
            }
            connected.countDown();
            topics.subscribe(consumer, new Rebalance());
            LOG.info("Worker {} reads steps from {}", workerId, topics);
            while (running.get()) {
                pollOnce();
            }
            finishRunningSteps();
        } catch (FencedInstanceIdException e) {
            LOG.error("Worker {} stopped: another worker joined its group with the same static member id, so this one was "
                    + "fenced. Give each running worker an id of its own", workerId);
        } catch (KafkaException e) {
            if (running.get()) {
                LOG.error("Worker {} stopped on a Kafka error", workerId, e);
            }
        } finally {
            pool.shutdownNow();
            // Leaving the group is a courtesy: right after a broker restart it waits on a rebalancing group, and a
            // stop must not. A step not committed is handed out again, and the engine takes one result per attempt.
            // A static member leaves too (Kafka's default keeps it until its session ends): a worker stopped on
            // purpose may not come back, and its partitions should not wait for it.
            consumer.close(CloseOptions.timeout(CLOSE_TIMEOUT).withGroupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP));
            producer.close(Duration.ofSeconds(5));
        }
    }

    private void pollOnce() {
        settleFinished();
        giveUpExpired();
        startWaiting();
        ConsumerRecords<String, byte[]> records;
        if (active.size() + waiting.size() >= concurrency) {
            // Full: take no more steps, and wake as soon as a handler returns. Polling goes on for the group membership.
            consumer.pause(consumer.assignment());
            awaitFinished(POLL);
            records = consumer.poll(Duration.ZERO);
        } else {
            if (!consumer.paused().isEmpty()) {
                consumer.resume(consumer.paused());
            }
            records = consumer.poll(POLL);
        }
        // A partition assigned while full was not paused yet: its records wait here for a slot.
        records.forEach(this::handOut);
        startWaiting();
        commitIfDue();
    }

    /** Runs the handlers registered per {@code run}, instead of the resolver given at construction. */
    KafkaStepWorker withHandlers(Map<String, StepHandler> handlers) {
        this.resolver = handlerResolver(handlers);
        return this;
    }

    /** Waits until the broker answered this worker; false when it has not within {@code timeout}. */
    boolean awaitConnected(Duration timeout) throws InterruptedException {
        return connected.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Begins a graceful stop: in-flight steps get until {@code timeout} to finish and report. */
    void stop(Duration timeout) {
        stopDeadlineNanos = System.nanoTime() + timeout.toNanos();
        running.set(false);
    }

    private void handOut(ConsumerRecord<String, byte[]> record) {
        TopicPartition partition = new TopicPartition(record.topic(), record.partition());
        PartitionProgress partitionProgress = progress.computeIfAbsent(partition, ignored -> new PartitionProgress());
        partitionProgress.handedOut(record.offset());
        StepReady ready = readable(record);
        if (ready == null || !accepts.test(ready)) {
            partitionProgress.done(record.offset(), false);
            return;
        }
        RunningStep step = new RunningStep(partition, record.offset(), ready);
        if (step.expired(Instant.now())) {
            warnGivenUp(step, "before it started");
            partitionProgress.done(record.offset(), false);
            return;
        }
        waiting.add(step);
    }

    private StepReady readable(ConsumerRecord<String, byte[]> record) {
        StepReady ready;
        try {
            ready = Json.mapper().readValue(record.value(), StepReady.class);
        } catch (RuntimeException e) {
            LOG.warn("Skipping an unreadable step-ready record at {}-{}@{}", record.topic(), record.partition(), record.offset());
            return null;
        }
        // Valid JSON is not yet a step: one record without what names the step must not stop the worker, which would
        // stop on it again after every restart, since it is never committed.
        if (ready == null || ready.instanceId() == null || ready.stepId() == null) {
            LOG.warn("Skipping a step-ready record that names no instance or step at {}-{}@{}", record.topic(), record.partition(), record.offset());
            return null;
        }
        if (!accepts.test(ready) && reportedRuns.add(String.valueOf(ready.run()))) {
            // Another group, registered for this run, takes it; the groups of one team (or of one topic) see its steps.
            LOG.warn("Worker {} has no handler for run '{}' (step {} of {}), which is in its topic {}; it leaves such steps "
                    + "to a group that handles them. If none does, register a handler for '{}' or fix the run in the process file",
                    workerId, ready.run(), ready.stepId(), ready.instanceId(), record.topic(), ready.run());
        }
        return ready;
    }

    private void startWaiting() {
        while (active.size() < concurrency && !waiting.isEmpty()) {
            RunningStep step = waiting.peek();
            byAttempt.put(step.attemptKey(), step);
            Future<?> handler = pool.submit(() -> execute(step));
            if (handler == null) {
                byAttempt.remove(step.attemptKey(), step);
                return;
            }
            waiting.poll();
            step.running(handler);
            active.add(step);
            progress.get(step.partition()).started();
        }
    }

    /** On a handler thread: runs the step and publishes its result, unless the worker gave up on it meanwhile. */
    private void execute(RunningStep step) {
        try {
            // Carries back its step's key, which an engine with SOP_RESULT_KEYS=required takes results only with.
            StepResult result = withKeyOf(step.ready(), resolve(step.ready()));
            // Given up on (the engine has moved on) or cut short by a stop: report nothing.
            boolean cutShort = step.isSettled() || Thread.currentThread().isInterrupted();
            step.published(!cutShort && (result == null || publish(result)));
        } finally {
            finished.add(step);
        }
    }

    private static StepResult withKeyOf(StepReady ready, StepResult result) {
        return result == null || ready.resultKey() == null ? result : result.withResultKey(ready.resultKey());
    }

    private StepResult resolve(StepReady ready) {
        try {
            return resolver.resolve(ready);
        } catch (Exception e) {
            String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            return new StepResult(ready.workspace(), ready.instanceId(), ready.stepId(), ready.attempt(), null,
                    StepError.of(StepOutcome.WORKER_ERROR, message), null, workerId, Instant.now());
        }
    }

    private void awaitFinished(Duration timeout) {
        try {
            RunningStep step = finished.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (step != null) {
                settle(step);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        settleFinished();
    }

    private void settleFinished() {
        RunningStep step;
        while ((step = finished.poll()) != null) {
            settle(step);
        }
    }

    private void settle(RunningStep step) {
        if (!step.settle()) {
            pool.abandonedReturned(); // given up on before, its thread is free at last
            return;
        }
        active.remove(step);
        byAttempt.remove(step.attemptKey(), step);
        PartitionProgress partitionProgress = progress.get(step.partition());
        if (partitionProgress == null) {
            return; // the partition went to another member meanwhile
        }
        if (step.published() || !running.get()) {
            // Not published during a stop: stays outstanding, uncommitted, and is handed out again.
            if (step.published()) {
                partitionProgress.done(step.offset(), true);
            }
            return;
        }
        // The broker did not take the result: run the step again here, as the group would hand it out again.
        partitionProgress.done(step.offset(), true);
        partitionProgress.handedOut(step.offset());
        waiting.addFirst(new RunningStep(step.partition(), step.offset(), step.ready()));
    }

    /** The watchdog: steps past their deadline no longer hold a slot, nor the partition's commits. */
    private void giveUpExpired() {
        if (active.isEmpty()) {
            return;
        }
        Instant now = Instant.now();
        for (RunningStep step : List.copyOf(active)) {
            if (step.expired(now) && step.settle()) {
                step.cancel();
                pool.abandoned();
                active.remove(step);
                byAttempt.remove(step.attemptKey(), step);
                PartitionProgress partitionProgress = progress.get(step.partition());
                if (partitionProgress != null) {
                    partitionProgress.done(step.offset(), true);
                }
                warnGivenUp(step, "after its handler ran past it");
            }
        }
    }

    private void warnGivenUp(RunningStep step, String when) {
        StepReady ready = step.ready();
        LOG.warn("Worker {} gave up on step {} of instance {}, attempt {}, run '{}', {}: its deadline {} has passed, so the engine "
                        + "has timed the attempt out and hands out a new attempt or fails the step; a late result of this attempt is not sent",
                workerId, ready.stepId(), ready.instanceId(), ready.attempt(), ready.run(), when, ready.deadline());
    }

    private void commitIfDue() {
        long sinceLast = System.nanoTime() - lastCommitNanos;
        boolean refresh = sinceLast >= IN_FLIGHT_REFRESH.toNanos() && !active.isEmpty();
        if (sinceLast < COMMIT_EVERY.toNanos()) {
            return;
        }
        Map<TopicPartition, OffsetAndMetadata> offsets = offsetsToCommit(progress.keySet(), refresh || commitFailed);
        if (offsets.isEmpty()) {
            return;
        }
        lastCommitNanos = System.nanoTime();
        commitFailed = false;
        // The callback runs on the poll thread, inside a later poll.
        consumer.commitAsync(offsets, (committed, error) -> {
            if (error != null) {
                // Sent again with the next commit; a partition that moved is run again by its next owner.
                commitFailed = true;
                LOG.debug("Committing done steps failed: {}", error.getMessage());
            }
        });
    }

    /** The offsets of the partitions whose progress changed, or, with {@code all}, of every partition with progress. */
    private Map<TopicPartition, OffsetAndMetadata> offsetsToCommit(Collection<TopicPartition> partitions, boolean all) {
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        Instant now = Instant.now();
        for (TopicPartition partition : partitions) {
            PartitionProgress partitionProgress = progress.get(partition);
            if (partitionProgress == null || !(partitionProgress.changed() || all)) {
                continue;
            }
            partitionProgress.committable().ifPresent(offset ->
                    offsets.put(partition, new OffsetAndMetadata(offset, InFlightMetadata.encode(partitionProgress.running(), now))));
            partitionProgress.committed();
        }
        return offsets;
    }

    private void commitNow(Collection<TopicPartition> partitions) {
        Map<TopicPartition, OffsetAndMetadata> offsets = offsetsToCommit(partitions, true);
        if (offsets.isEmpty()) {
            return;
        }
        try {
            consumer.commitSync(offsets);
        } catch (KafkaException e) {
            // The partitions moved to another member meanwhile; it runs those steps again and the engine ignores duplicates.
            LOG.warn("Committing done steps failed: {}", e.getMessage());
        }
    }

    /** A graceful stop: running steps get until the stop's deadline; the rest are run again by the group. */
    private void finishRunningSteps() {
        waiting.clear();
        try {
            while (!active.isEmpty() && System.nanoTime() < stopDeadlineNanos) {
                consumer.pause(consumer.assignment());
                awaitFinished(POLL);
                consumer.poll(Duration.ZERO);
            }
            // Cut short: interrupted, they report nothing and stay uncommitted.
            active.forEach(step -> {
                step.settle();
                step.cancel();
            });
            active.clear();
            commitNow(List.copyOf(progress.keySet()));
        } catch (KafkaException e) {
            LOG.warn("Worker {} could not commit its last steps: {}", workerId, e.getMessage());
        }
    }

    /** The resolver of automated steps: the handler registered for the step's {@code run}, with this worker's heartbeats. */
    StepResolver handlerResolver(Map<String, StepHandler> handlers) {
        StepContext.Heartbeats heartbeats = this::sendHeartbeat;
        return ready -> {
            StepContext context = new StepContext(ready.workspace(), ready.instanceId(), ready.process(), ready.version(), ready.stepId(),
                    ready.run(), ready.attempt(), ready.inputs(), heartbeats);
            StepOutcome outcome = StepOutcome.run(handlers.get(ready.run()), context);
            return outcome instanceof StepOutcome.Completed completed
                    ? new StepResult(ready.workspace(), ready.instanceId(), ready.stepId(), ready.attempt(), completed.outputs(), null, null, workerId, Instant.now())
                    : new StepResult(ready.workspace(), ready.instanceId(), ready.stepId(), ready.attempt(), null, ((StepOutcome.Failed) outcome).error(),
                            null, workerId, Instant.now());
        };
    }

    /**
     * A heartbeat goes to {@code sop.step-results} like a result, so the engine decides it in order with the rest of
     * the instance, and moves this worker's own deadline for the step, as the engine moves its. Not awaited: a lost
     * heartbeat is made up by the next one.
     */
    private void sendHeartbeat(StepContext step) {
        RunningStep running = byAttempt.get(RunningStep.key(step.instanceId(), step.stepId(), step.attempt()));
        if (running != null) {
            running.heartbeat(Instant.now());
        }
        StepResult heartbeat = StepResult.heartbeat(step.workspace(), step.instanceId(), step.stepId(), step.attempt(), workerId, Instant.now());
        if (running != null) {
            heartbeat = withKeyOf(running.ready(), heartbeat);
        }
        producer.send(new ProducerRecord<>(Topics.STEP_RESULTS, step.instanceId(), Json.mapper().writeValueAsBytes(heartbeat)), (metadata, error) -> {
            if (error != null) {
                LOG.warn("A heartbeat of {} {} could not be sent: {}", step.instanceId(), step.stepId(), error.getMessage());
            }
        });
    }

    /**
     * True once the broker acknowledged the result; false leaves the step uncommitted, so it is run again. A result
     * too large for one Kafka record would be refused every time, and the step run again without end: it is reported
     * instead as the attempt's failure, {@code payload_too_large}, which the step's retry policy then handles as the
     * engine handles a result over the instance's budget.
     */
    private boolean publish(StepResult result) {
        byte[] value = Json.mapper().writeValueAsBytes(result);
        long backoff = 100;
        for (int attempt = 1; attempt <= SEND_ATTEMPTS; attempt++) {
            try {
                producer.send(new ProducerRecord<>(Topics.STEP_RESULTS, result.instanceId(), value)).get(30, TimeUnit.SECONDS);
                return true;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            } catch (Exception e) {
                if (e instanceof ExecutionException && e.getCause() instanceof RecordTooLargeException) {
                    LOG.warn("The result of {} {} is {} bytes, more than one record may hold; reporting the attempt failed",
                            result.instanceId(), result.stepId(), value.length);
                    return publish(tooLarge(result, value.length));
                }
                LOG.warn("Publishing the result of {} {} failed (attempt {}): {}", result.instanceId(), result.stepId(), attempt, e.getMessage());
                sleep(backoff);
                backoff *= 2;
            }
        }
        return false;
    }

    private StepResult tooLarge(StepResult result, int bytes) {
        return new StepResult(result.workspace(), result.instanceId(), result.stepId(), result.attempt(), null,
                StepError.of(ErrorCodes.PAYLOAD_TOO_LARGE, "The step's result is %d bytes of JSON, more than one Kafka record may hold".formatted(bytes)),
                null, workerId, Instant.now()).withResultKey(result.resultKey());
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Partitions move between members on the poll thread, inside {@code poll}. One taken away first waits a little for
     * its running steps, then commits what is done, so its next owner starts right after; steps still running then are
     * interrupted and run again by that owner (the engine keeps one result per attempt).
     */
    private final class Rebalance implements ConsumerRebalanceListener {

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            // Progress starts with the first record of each partition.
        }

        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            Set<TopicPartition> revoked = new HashSet<>(partitions);
            waiting.removeIf(step -> revoked.contains(step.partition()));
            long until = Math.min(System.nanoTime() + REVOKE_WAIT.toNanos(), stopDeadlineNanos);
            while (active.stream().anyMatch(step -> revoked.contains(step.partition())) && System.nanoTime() < until) {
                awaitFinished(POLL);
            }
            handBack(revoked);
            commitNow(revoked);
            revoked.forEach(progress::remove);
        }

        @Override
        public void onPartitionsLost(Collection<TopicPartition> partitions) {
            Set<TopicPartition> lost = new HashSet<>(partitions);
            waiting.removeIf(step -> lost.contains(step.partition()));
            handBack(lost);
            lost.forEach(progress::remove);
        }

        private void handBack(Set<TopicPartition> partitions) {
            for (RunningStep step : List.copyOf(active)) {
                if (partitions.contains(step.partition()) && step.settle()) {
                    step.cancel();
                    pool.abandoned();
                    active.remove(step);
                    byAttempt.remove(step.attemptKey(), step);
                }
            }
        }
    }
}
