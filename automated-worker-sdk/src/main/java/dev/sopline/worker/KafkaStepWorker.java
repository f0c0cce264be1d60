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
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.FencedInstanceIdException;
import org.apache.kafka.common.errors.InterruptException;
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
 *
 * <p>A handler runs once per step handed out: whatever it throws ({@link Error}s included) or returns (outputs that
 * cannot be written as JSON, {@link ResultJson}) becomes a result, and a result the broker does not take is sent again,
 * not computed again, until the attempt's deadline. A defect on the poll thread ends the worker with an ERROR that says
 * so, rather than silently ({@code SopWorker.isRunning()} turns false).
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
    /** How long a stop past its deadline still waits for results on their way to the broker. */
    private static final Duration SENDING_WAIT = Duration.ofSeconds(2);
    /** Between sends of a result the broker did not take: doubling from the first, jittered, up to the longest. */
    private static final Duration FIRST_RESEND = Duration.ofMillis(100);
    private static final Duration LONGEST_RESEND = Duration.ofSeconds(5);
    /** A result still not taken is logged again after this many more tries, not at each. */
    private static final int RESEND_LOG_EVERY = 10;
    /** Runs without a handler that were warned about; a run forgotten when more come is warned about again. */
    private static final int MAX_REPORTED_RUNS = 1_000;

    private final StepTopics topics;
    private StepResolver resolver;
    private final Predicate<StepReady> accepts;
    private final String workerId;
    private final int concurrency;
    private final KafkaConsumer<String, byte[]> consumer;
    private final Producer<String, byte[]> producer;
    private final HandlerPool pool;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final CountDownLatch connected = new CountDownLatch(1);
    private final RecentKeys reportedRuns = new RecentKeys(MAX_REPORTED_RUNS);
    private final String bootstrapServers;
    private volatile long stopDeadlineNanos = Long.MAX_VALUE;
    /**
     * Set once the worker cuts its running steps short (the stop's deadline passed, or the worker ends): a handler
     * returning after that has its result dropped, and its step is run again by the group. Until then, a graceful stop
     * still sends the results of the handlers that return.
     */
    private volatile boolean cuttingShort;

    /** Steps whose handler returned, for the poll thread to settle. */
    private final BlockingQueue<RunningStep> finished = new LinkedBlockingQueue<>();
    /** Running steps by attempt, for their heartbeats. */
    private final Map<String, RunningStep> byAttempt = new ConcurrentHashMap<>();
    // Owned by the poll thread (the rebalance listener runs on it too).
    private final Map<TopicPartition, PartitionProgress> progress = new HashMap<>();
    private final ReadAhead readAhead;
    private final WaitingSteps waiting;
    private final Set<RunningStep> active = new HashSet<>();
    /** Set before the worker starts ({@link #withResultsToCommandTopic}); read on its threads after. */
    private volatile ResultRoute route;
    private long lastCommitNanos = System.nanoTime();
    private boolean commitFailed;

    KafkaStepWorker(String bootstrapServers, String group, StepTopics topics, Predicate<StepReady> accepts,
                    StepResolver resolver, int concurrency, String workerId, String staticMemberId) {
        this(bootstrapServers, group, topics, accepts, resolver, concurrency, workerId, staticMemberId, resultProducer(bootstrapServers));
    }

    /** With {@code producer} for results and heartbeats: a test's, to make the broker refuse them. */
    KafkaStepWorker(String bootstrapServers, String group, StepTopics topics, Predicate<StepReady> accepts,
                    StepResolver resolver, int concurrency, String workerId, String staticMemberId, Producer<String, byte[]> producer) {
        this(bootstrapServers, group, topics, accepts, resolver, concurrency, workerId, staticMemberId, producer, ReadAhead.none());
    }

    KafkaStepWorker(String bootstrapServers, String group, StepTopics topics, Predicate<StepReady> accepts,
                    StepResolver resolver, int concurrency, String workerId, String staticMemberId, ReadAhead readAhead) {
        this(bootstrapServers, group, topics, accepts, resolver, concurrency, workerId, staticMemberId, resultProducer(bootstrapServers), readAhead);
    }

    private KafkaStepWorker(String bootstrapServers, String group, StepTopics topics, Predicate<StepReady> accepts, StepResolver resolver,
                            int concurrency, String workerId, String staticMemberId, Producer<String, byte[]> producer, ReadAhead readAhead) {
        this.topics = topics;
        this.readAhead = readAhead;
        this.waiting = new WaitingSteps(readAhead.fair());
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
        // No more than the slots, unless reading ahead: steps taken and not started wait in this worker, where no other
        // member can run them.
        consumerConfig.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, readAhead.maxPollRecords(this.concurrency));
        consumerConfig.put(ConsumerConfig.CLIENT_ID_CONFIG, workerId);
        if (staticMemberId != null) {
            // Restarted after a crash with the same id, the worker takes its partitions back at once (SopWorker.Builder#staticMember).
            consumerConfig.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, staticMemberId);
        }
        // A team's topic is created when its first process is registered: found within this by the pattern subscription.
        consumerConfig.put(ConsumerConfig.METADATA_MAX_AGE_CONFIG, 10_000);
        // Cooperative rebalancing: a member joining or leaving takes away only the partitions that move. Kafka's default
        // (range first, cooperative second) rebalances eagerly, taking every partition from every member at each join,
        // so the steps of partitions that came straight back were interrupted and run again. Members with the default
        // list advertise this assignor too, so a group moves over to it in one rolling restart.
        consumerConfig.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, CooperativeStickyAssignor.class.getName());
        this.consumer = new KafkaConsumer<>(KafkaClientSecurity.secured(consumerConfig), new StringDeserializer(), new ByteArrayDeserializer());
        this.producer = producer;
        this.pool = new HandlerPool(this.concurrency, workerId);
        this.route = new ResultRoute(workerId, true);
    }

    private static Producer<String, byte[]> resultProducer(String bootstrapServers) {
        return new KafkaProducer<>(KafkaClientSecurity.secured(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.LINGER_MS_CONFIG, 0,
                // Results finished while a request is out go together in the next one: batching under load, no wait when idle.
                ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1)), new StringSerializer(), new ByteArraySerializer());
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
        } catch (RuntimeException | Error e) {
            // A defect of this worker: it ends, but visibly, rather than leave a thread that died without a word.
            LOG.error("Worker {} stopped on an unexpected error and takes no more steps; restart it. Its steps not reported go "
                    + "to the other members of its group", workerId, e);
        } finally {
            // Before the handlers are interrupted: a step cut short by the worker's end stays uncommitted (see settle),
            // also when the thread ends on an error, and goes to the group's other members when the consumer closes.
            running.set(false);
            cuttingShort = true;
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
        if (readAhead.isFull(concurrency, active.size(), waiting)) {
            // Full: take no more steps, and wake as soon as a handler returns. Polling goes on for the group membership.
            consumer.pause(consumer.assignment());
            awaitFinished(POLL);
            records = poll(Duration.ZERO);
        } else {
            if (!consumer.paused().isEmpty()) {
                consumer.resume(consumer.paused());
            }
            if (active.size() >= concurrency) {
                // Reading ahead while every slot is taken: whatever is fetched, and a free slot is seen at once.
                records = poll(Duration.ZERO);
                if (records.isEmpty()) {
                    awaitFinished(POLL);
                }
            } else {
                records = poll(POLL);
            }
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

    /** Whether results go to the engine's command topic first ({@link ResultRoute}), or only ever to {@code sop.step-results}. */
    KafkaStepWorker withResultsToCommandTopic(boolean direct) {
        this.route = new ResultRoute(workerId, direct);
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

    /**
     * Polls, and notes for each partition how far the records returned go before any is handed out: the consumer's
     * position is past them now, and a partition commits its position only once each of them is handed out and done.
     */
    private ConsumerRecords<String, byte[]> poll(Duration timeout) {
        ConsumerRecords<String, byte[]> records = consumer.poll(timeout);
        for (TopicPartition partition : records.partitions()) {
            List<ConsumerRecord<String, byte[]>> returned = records.records(partition);
            progress.computeIfAbsent(partition, ignored -> new PartitionProgress()).returned(returned.get(returned.size() - 1).offset() + 1);
        }
        return records;
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
        waiting.add(step, record.serializedValueSize());
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
            PartitionProgress partitionProgress = progress.get(step.partition());
            if (partitionProgress == null) {
                waiting.poll(); // its partition went to another member, which runs it
                continue;
            }
            if (step.expired(Instant.now())) {
                // It waited, read ahead, past its deadline: the engine has moved on from this attempt.
                waiting.poll();
                partitionProgress.done(step.offset(), false);
                warnGivenUp(step, "before it started");
                continue;
            }
            byAttempt.put(step.attemptKey(), step);
            Future<?> handler = pool.submit(() -> execute(step));
            if (handler == null) {
                byAttempt.remove(step.attemptKey(), step);
                return;
            }
            waiting.poll();
            step.running(handler);
            active.add(step);
            partitionProgress.started();
        }
    }

    /** On a handler thread: runs the step and publishes its result, unless the worker gave up on it meanwhile. */
    private void execute(RunningStep step) {
        try {
            // Carries back its step's key, which an engine with SOP_RESULT_KEYS=required takes results only with.
            StepResult result = withKeyOf(step.ready(), resolve(step.ready()));
            // Given up on (the engine has moved on) or cut short by the worker's stop: report nothing. Every interrupt
            // the worker sends comes after one or the other; a flag the handler left set (re-set after catching an
            // InterruptedException of its own) is cleared, or the result would be dropped and its step committed.
            Thread.interrupted();
            // Noted before the worker's flag is read, as the stop notes its flag before it reads this one: either the
            // stop waits for this send, or this handler sees the stop and sends nothing.
            step.sending(true);
            boolean cutShort = step.isSettled() || cuttingShort;
            step.published(!cutShort && (result == null || publish(step, result)));
        } catch (RuntimeException | Error e) {
            StepReady ready = step.ready();
            LOG.error("Worker {} could not report step {} of instance {}, attempt {}", workerId, ready.stepId(), ready.instanceId(),
                    ready.attempt(), e);
        } finally {
            // Queued before it stops counting as sending: a stop that sees it no longer sending finds it queued.
            finished.add(step);
            step.sending(false);
        }
    }

    private static StepResult withKeyOf(StepReady ready, StepResult result) {
        return result == null || ready.resultKey() == null ? result : result.withResultKey(ready.resultKey());
    }

    private StepResult resolve(StepReady ready) {
        try {
            return resolver.resolve(ready);
        } catch (Exception e) {
            return failed(ready, StepError.of(StepOutcome.WORKER_ERROR, StepOutcome.messageOf(e)));
        } catch (Throwable e) {
            // As StepOutcome#run for handlers: left to escape, it would leave the step unreported and run again without end.
            LOG.error("The resolver of step {} of instance {} (run '{}'), attempt {}, threw {}; reporting the attempt failed with {}",
                    ready.stepId(), ready.instanceId(), ready.run(), ready.attempt(), e.getClass().getName(), StepOutcome.WORKER_ERROR, e);
            return failed(ready, StepError.of(StepOutcome.WORKER_ERROR, StepOutcome.messageOf(e)));
        }
    }

    private StepResult failed(StepReady ready, StepError error) {
        return new StepResult(ready.workspace(), ready.instanceId(), ready.stepId(), ready.attempt(), null, error, null, workerId,
                Instant.now());
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
        if (step.published()) {
            partitionProgress.done(step.offset(), true);
        } else if (!cuttingShort) {
            // Its result was sent until the attempt's deadline passed (the engine has timed the attempt out meanwhile),
            // or could not be reported at all (logged then). Never run again here: that would repeat the handler's
            // side effects, at once and without end when the cause stays.
            partitionProgress.done(step.offset(), true);
            if (step.expired(Instant.now())) {
                warnGivenUp(step, "before the broker took its result");
            }
        }
        // Cut short by the worker's stop or end: stays outstanding, uncommitted, and is handed out again.
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
            if (partitionProgress == null) {
                continue;
            }
            long position = positionOf(partition);
            if (!(partitionProgress.changed(position) || all)) {
                continue;
            }
            OptionalLong committable = partitionProgress.committable(position);
            committable.ifPresent(offset ->
                    offsets.put(partition, new OffsetAndMetadata(offset, InFlightMetadata.encode(partitionProgress.running(), now))));
            partitionProgress.committed(committable.orElse(-1));
        }
        return offsets;
    }

    /**
     * The offset of the next record this worker's consumer returns from {@code partition}: past every record it handed
     * out and the transaction markers after them. -1 when not known (the partition is no longer assigned).
     */
    private long positionOf(TopicPartition partition) {
        try {
            return consumer.position(partition, Duration.ZERO);
        } catch (KafkaException | IllegalStateException e) {
            return -1;
        }
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
                poll(Duration.ZERO);
            }
            // The rest are cut short: interrupted, they report nothing and stay uncommitted. A handler already sending
            // its result finishes sending it first, so that a result the broker took is committed, not run again.
            cuttingShort = true;
            long sendingUntil = System.nanoTime() + SENDING_WAIT.toNanos();
            while (active.stream().anyMatch(RunningStep::sending) && System.nanoTime() < sendingUntil) {
                awaitFinished(POLL);
            }
            settleFinished();
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
        producer.send(route.record(step.instanceId(), Json.mapper().writeValueAsBytes(heartbeat)), (metadata, error) -> {
            if (error != null && !route.refusedDirect(error)) {
                LOG.warn("A heartbeat of {} {} could not be sent: {}", step.instanceId(), step.stepId(), error.getMessage());
            }
        });
    }

    /**
     * Sends the result until the broker acknowledges it: true then. A result the broker did not take is sent again,
     * not computed again, since running the handler again would repeat its side effects; for as long as the attempt is
     * this worker's: until its deadline (as heartbeats moved it) passes, or it is given up on, handed to another member
     * or cut short by a stop, which interrupt this thread; false then. A result too large for one Kafka record would be
     * refused every time: it is reported instead as the attempt's failure, {@code payload_too_large}, which the step's
     * retry policy then handles as the engine handles a result over the instance's budget.
     */
    private boolean publish(RunningStep step, StepResult result) {
        byte[] value = encoded(result);
        long ceiling = FIRST_RESEND.toMillis();
        for (int tries = 1; ; tries++) {
            if (step.isSettled() || Thread.currentThread().isInterrupted() || step.expired(Instant.now())) {
                return false;
            }
            Throwable failure;
            try {
                producer.send(route.record(result.instanceId(), value)).get();
                return true;
            } catch (InterruptedException | InterruptException e) {
                Thread.currentThread().interrupt();
                return false;
            } catch (ExecutionException e) {
                failure = e.getCause();
            } catch (RuntimeException e) {
                failure = e; // from send itself: no metadata within max.block.ms, a closed producer
            }
            if (route.refusedDirect(failure)) {
                tries--;
                continue;
            }
            if (failure instanceof RecordTooLargeException) {
                LOG.warn("The result of {} {} is {} bytes, more than one record may hold; reporting the attempt failed",
                        result.instanceId(), result.stepId(), value.length);
                value = encoded(tooLarge(result, value.length));
                continue;
            }
            if (tries % RESEND_LOG_EVERY == 1) {
                LOG.warn("Publishing the result of {} {} failed ({} tries so far): {}; sending it again until the broker takes it "
                        + "or the attempt's deadline passes", result.instanceId(), result.stepId(), tries, failure.getMessage());
            }
            sleep(ThreadLocalRandom.current().nextLong(ceiling / 2, ceiling + 1));
            ceiling = Math.min(ceiling * 2, LONGEST_RESEND.toMillis());
        }
    }

    /** The result as JSON; one whose outputs cannot be written fails the attempt instead ({@link ResultJson}). */
    private byte[] encoded(StepResult result) {
        try {
            return ResultJson.encode(result);
        } catch (ResultJson.Unencodable e) {
            LOG.error("The result of step {} of instance {}, attempt {}, cannot be sent; reporting the attempt failed with {}",
                    result.stepId(), result.instanceId(), result.attempt(), ResultJson.UNENCODABLE, e.getCause());
            return Json.mapper().writeValueAsBytes(new StepResult(result.workspace(), result.instanceId(), result.stepId(), result.attempt(),
                    null, StepError.of(ResultJson.UNENCODABLE, e.getMessage()), null, workerId, Instant.now()).withResultKey(result.resultKey()));
        }
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
            // Tracked from the start, so that a partition whose committed offset stops short of a transaction marker
            // commits past it once the consumer reads past it, with no step handed out.
            partitions.forEach(partition -> progress.computeIfAbsent(partition, ignored -> new PartitionProgress()));
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
