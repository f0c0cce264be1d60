package dev.sopline.worker;

import dev.sopline.schemas.event.StepReady;
import dev.sopline.schemas.event.StepResult;
import dev.sopline.schemas.instance.StepError;
import dev.sopline.schemas.json.Json;
import dev.sopline.schemas.topic.Topics;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kafka mode: a member of a consumer group on step-ready topics (for handlers, the topics of their teams,
 * {@code sop.steps.automated.<namespace>}; see {@link StepTopics}). Each poll's steps run on a bounded pool;
 * a step's offset is committed only after its result is acknowledged by the broker, so a worker that dies mid-step
 * loses nothing: the group hands the step to another member, with the same attempt number, and the engine keeps one
 * result per attempt. While a batch runs, the partitions are paused and polling goes on, so a long step does not
 * cost the worker its group membership.
 */
final class KafkaStepWorker implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaStepWorker.class);
    private static final Duration POLL = Duration.ofMillis(50);
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(2);
    private static final Duration HEARTBEAT_EVERY = Duration.ofMillis(200);
    private static final int SEND_ATTEMPTS = 5;

    private final StepTopics topics;
    private StepResolver resolver;
    private final java.util.function.Predicate<StepReady> accepts;
    private final String workerId;
    private final KafkaConsumer<String, byte[]> consumer;
    private final KafkaProducer<String, byte[]> producer;
    private final ExecutorService pool;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final java.util.concurrent.CountDownLatch connected = new java.util.concurrent.CountDownLatch(1);
    private final Set<String> reportedRuns = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final String bootstrapServers;
    private volatile long stopDeadlineNanos = Long.MAX_VALUE;

    KafkaStepWorker(String bootstrapServers, String group, StepTopics topics, java.util.function.Predicate<StepReady> accepts,
                    StepResolver resolver, int concurrency, String workerId) {
        this.topics = topics;
        this.bootstrapServers = bootstrapServers;
        this.accepts = accepts;
        this.resolver = resolver;
        this.workerId = workerId;
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
        consumerConfig.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, Math.max(1, concurrency * 2));
        consumerConfig.put(ConsumerConfig.CLIENT_ID_CONFIG, workerId);
        if (topics.pattern() != null) {
            // A team's topic is created when its first process is registered: found within this by a pattern subscription.
            consumerConfig.put(ConsumerConfig.METADATA_MAX_AGE_CONFIG, 10_000);
        }
        this.consumer = new KafkaConsumer<>(consumerConfig, new StringDeserializer(), new ByteArrayDeserializer());
        this.producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.LINGER_MS_CONFIG, 0,
                // Results finished while a request is out go together in the next one: batching under load, no wait when idle.
                ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1), new StringSerializer(), new ByteArraySerializer());
        this.pool = Executors.newFixedThreadPool(Math.max(1, concurrency), runnable -> {
            Thread thread = new Thread(runnable, workerId + "-step");
            thread.setDaemon(true);
            return thread;
        });
    }

    @Override
    public void run() {
        try {
            if (!new KafkaPreflight(bootstrapServers, workerId).awaitBroker(topics.names(), running::get)) {
                return;
            }
            connected.countDown();
            topics.subscribe(consumer);
            LOG.info("Worker {} reads steps from {}", workerId, topics);
            while (running.get()) {
                ConsumerRecords<String, byte[]> records = consumer.poll(POLL);
                if (!records.isEmpty()) {
                    runBatch(records);
                }
            }
        } catch (KafkaException e) {
            if (running.get()) {
                LOG.error("Worker {} stopped on a Kafka error", workerId, e);
            }
        } finally {
            pool.shutdownNow();
            // Leaving the group is a courtesy: right after a broker restart it waits on a rebalancing group, and a
            // stop must not. A step not committed is handed out again, and the engine takes one result per attempt.
            consumer.close(CloseOptions.timeout(CLOSE_TIMEOUT));
            producer.close(Duration.ofSeconds(5));
        }
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

    private void runBatch(ConsumerRecords<String, byte[]> records) {
        Map<TopicPartition, List<Pending>> byPartition = new HashMap<>();
        for (ConsumerRecord<String, byte[]> record : records) {
            byPartition.computeIfAbsent(new TopicPartition(record.topic(), record.partition()), ignored -> new ArrayList<>())
                    .add(new Pending(record.offset(), start(record)));
        }
        consumer.pause(consumer.assignment());
        try {
            awaitBatch(byPartition);
        } finally {
            commitFinished(byPartition);
            consumer.resume(consumer.paused());
        }
    }

    private CompletableFuture<Boolean> start(ConsumerRecord<String, byte[]> record) {
        StepReady ready;
        try {
            ready = Json.mapper().readValue(record.value(), StepReady.class);
        } catch (RuntimeException e) {
            LOG.warn("Skipping an unreadable step-ready record at {}-{}@{}", record.topic(), record.partition(), record.offset());
            return CompletableFuture.completedFuture(true);
        }
        if (!accepts.test(ready)) {
            // Another group, registered for this run, takes it; the groups of one team (or of one topic) see its steps.
            if (reportedRuns.add(ready.run())) {
                LOG.warn("Worker {} has no handler for run '{}' (step {} of {}), which is in its topic {}; it leaves such steps "
                        + "to a group that handles them. If none does, register a handler for '{}' or fix the run in the process file",
                        workerId, ready.run(), ready.stepId(), ready.instanceId(), record.topic(), ready.run());
            }
            return CompletableFuture.completedFuture(true);
        }
        return CompletableFuture.supplyAsync(() -> execute(ready), pool);
    }

    private boolean execute(StepReady ready) {
        StepResult result;
        try {
            result = resolver.resolve(ready);
        } catch (Exception e) {
            String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            result = new StepResult(ready.workspace(), ready.instanceId(), ready.stepId(), ready.attempt(), null,
                    StepError.of(StepOutcome.WORKER_ERROR, message), null, workerId, Instant.now());
        }
        if (Thread.currentThread().isInterrupted()) {
            // Cut short by a close that did not wait for it: report nothing, the step is handed out again.
            return false;
        }
        return result == null || publish(result);
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
     * the instance. Not awaited: a lost heartbeat is made up by the next one.
     */
    private void sendHeartbeat(StepContext step) {
        StepResult heartbeat = StepResult.heartbeat(step.workspace(), step.instanceId(), step.stepId(), step.attempt(), workerId, Instant.now());
        producer.send(new ProducerRecord<>(Topics.STEP_RESULTS, step.instanceId(), Json.mapper().writeValueAsBytes(heartbeat)), (metadata, error) -> {
            if (error != null) {
                LOG.warn("A heartbeat of {} {} could not be sent: {}", step.instanceId(), step.stepId(), error.getMessage());
            }
        });
    }

    /** True once the broker acknowledged the result; false leaves the step uncommitted, so it is handed out again. */
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
                LOG.warn("Publishing the result of {} {} failed (attempt {}): {}", result.instanceId(), result.stepId(), attempt, e.getMessage());
                sleep(backoff);
                backoff *= 2;
            }
        }
        return false;
    }

    private void awaitBatch(Map<TopicPartition, List<Pending>> batch) {
        CompletableFuture<Void> all = CompletableFuture.allOf(
                batch.values().stream().flatMap(List::stream).map(Pending::result).toArray(CompletableFuture[]::new));
        while (!all.isDone() && System.nanoTime() < stopDeadlineNanos) {
            try {
                // Wake as soon as the batch is done; a paused poll in between keeps the group membership alive.
                all.get(HEARTBEAT_EVERY.toMillis(), TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.TimeoutException stillRunning) {
                ConsumerRecords<String, byte[]> unexpected = consumer.poll(Duration.ZERO);
                // Partitions assigned during the batch are not paused yet: put their records back for the next poll.
                Map<TopicPartition, Long> firstOffsets = new HashMap<>();
                unexpected.forEach(record -> firstOffsets.merge(new TopicPartition(record.topic(), record.partition()), record.offset(), Math::min));
                firstOffsets.forEach(consumer::seek);
                consumer.pause(consumer.assignment());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (java.util.concurrent.ExecutionException e) {
                return;
            }
        }
    }

    /**
     * Commits, per partition, up to the first step that has not reported, and rewinds to it: that step and the ones
     * after it are handed out again (the engine ignores the duplicates among them).
     */
    private void commitFinished(Map<TopicPartition, List<Pending>> batch) {
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        batch.forEach((partition, pendings) -> {
            if (!consumer.assignment().contains(partition)) {
                return;
            }
            long next = -1;
            for (Pending pending : pendings) {
                if (!pending.result().isDone() || !Boolean.TRUE.equals(pending.result().getNow(false))) {
                    if (running.get()) {
                        consumer.seek(partition, pending.offset());
                    }
                    break;
                }
                next = pending.offset() + 1;
            }
            if (next >= 0) {
                offsets.put(partition, new OffsetAndMetadata(next));
            }
        });
        if (offsets.isEmpty()) {
            return;
        }
        try {
            consumer.commitSync(offsets);
        } catch (KafkaException e) {
            // The partitions moved to another member meanwhile; it runs those steps again and the engine ignores duplicates.
            LOG.warn("Committing finished steps failed: {}", e.getMessage());
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private record Pending(long offset, CompletableFuture<Boolean> result) {}
}
