package dev.sopline.engine.runtime;

import dev.sopline.engine.api.topic.EngineTopics;
import dev.sopline.engine.api.serde.JsonSerde;
import dev.sopline.engine.api.serde.RecordSerde;
import dev.sopline.schemas.kafka.KafkaClientSecurity;
import dev.sopline.schemas.command.ErrorCodes;
import dev.sopline.schemas.command.ReportStepResult;
import dev.sopline.schemas.event.StepResult;
import dev.sopline.schemas.instance.StepError;
import dev.sopline.schemas.topic.Topics;
import java.time.Duration;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.errors.LogAndContinueExceptionHandler;
import org.apache.kafka.streams.errors.LogAndContinueProcessingExceptionHandler;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.apache.kafka.streams.processor.api.ContextualProcessor;
import org.apache.kafka.streams.processor.api.Record;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Copies worker results from the public {@code sop.step-results} into the engine's command topic, as
 * {@link ReportStepResult} commands keyed by instance id, so the engine decides from one log per partition.
 *
 * <p>A Kafka Streams application of its own, at least once and outside the engine's transactions: a result is
 * forwarded as soon as it is read (no linger), so the relay adds no commit interval to a step's handoff. After a
 * crash it may copy a result twice; the engine ignores any result that does not answer the step's current, running
 * attempt, so a repeat of (instance, step, attempt) changes nothing.
 */
public final class ResultRelay implements AutoCloseable {

    static final String SOURCE = "step-results-source";
    static final String RELAY = "step-results-as-commands";
    static final String SINK = "commands-sink";

    private static final Logger LOG = LoggerFactory.getLogger(ResultRelay.class);
    /** Longer names are clipped in the log: an instance id is 26 characters, a step id rarely more than a few dozen. */
    private static final int LOGGED_NAME_CHARS = 80;

    private final KafkaStreams streams;

    private ResultRelay(KafkaStreams streams) {
        this.streams = streams;
    }

    public static Topology topology() {
        Topology topology = new Topology();
        topology.addSource(SOURCE, new StringDeserializer(), new JsonSerde<>(StepResult.class).deserializer(), Topics.STEP_RESULTS);
        topology.addProcessor(RELAY, () -> new ContextualProcessor<String, StepResult, String, byte[]>() {
            @Override
            public void process(Record<String, StepResult> record) {
                if (record.value() != null) {
                    // Bounded as the engine will bound it, so that texts the budget does not count never make the copy too large.
                    StepResult result = record.value().bounded();
                    byte[] copy = encoded(result);
                    if (copy != null) {
                        // Nothing of the worker's record but its result: no header of its own reaches the command topic.
                        context().forward(record.withKey(new ReportStepResult(result).key()).withValue(copy).withHeaders(new RecordHeaders()));
                    }
                }
            }
        }, SOURCE);
        topology.addSink(SINK, EngineTopics.COMMANDS, new StringSerializer(), new ByteArraySerializer(), RELAY);
        return topology;
    }

    /**
     * The command that carries {@code result}, as the engine's record. The copy is encoded here, where its size is known
     * before anything is sent: the engine's encoding is not the worker's JSON, and a result under the broker's limit
     * as JSON can be over it as the engine's record (100,000 numbers such as {@code 1.5} take 4 bytes each in JSON
     * and 11 in Smile). Such a copy would be refused by the broker every time, and the relay would stop on it and hold
     * every result behind it. It is carried instead as that attempt's failure, {@code payload_too_large}, which the
     * step's retry policy handles, as the engine does with a result over the instance's budget and the SDK with one
     * over a record. A result that cannot be encoded at all fails its attempt with {@code invalid_payload}. Null when
     * even the failure would be too large: its names are, and no step of the engine's has such names.
     */
    static byte[] encoded(StepResult result) {
        byte[] copy;
        try {
            copy = RecordSerde.write(new ReportStepResult(result));
        } catch (RuntimeException e) {
            LOG.warn("The result of {} {} attempt {} cannot be encoded ({}); reporting the attempt failed",
                    forLog(result.instanceId()), forLog(result.stepId()), result.attempt(), e.toString());
            return RecordSerde.write(new ReportStepResult(failed(result, ErrorCodes.INVALID_PAYLOAD,
                    "The step's result could not be encoded as the engine's record")));
        }
        if (copy.length <= RecordSerde.MAX_RECORD_BYTES) {
            return copy;
        }
        LOG.warn("The result of {} {} attempt {} is {} bytes as the engine's record, more than one record may hold; reporting the attempt failed",
                forLog(result.instanceId()), forLog(result.stepId()), result.attempt(), copy.length);
        byte[] failure = RecordSerde.write(new ReportStepResult(failed(result, ErrorCodes.PAYLOAD_TOO_LARGE,
                "The step's result is %d bytes as the engine's record, more than one Kafka record may hold".formatted(copy.length))));
        if (failure.length > RecordSerde.MAX_RECORD_BYTES) {
            // What names the step is itself that large: no step has such a name, and the engine would ignore it.
            LOG.warn("Dropping a result whose workspace, instance or step name alone is too large for a record");
            return null;
        }
        return failure;
    }

    /**
     * A name as a worker's record gave it, for one line of the log: anyone who may write to {@code sop.step-results}
     * chooses it, and a step id of a mebibyte must not become a log line of a mebibyte.
     */
    static String forLog(String name) {
        if (name == null || name.length() <= LOGGED_NAME_CHARS) {
            return name;
        }
        return name.substring(0, LOGGED_NAME_CHARS) + "... (" + name.length() + " characters)";
    }

    private static StepResult failed(StepResult result, String code, String message) {
        return new StepResult(result.workspace(), result.instanceId(), result.stepId(), result.attempt(), null,
                StepError.of(code, message), null, result.worker(), result.reportedAt()).withResultKey(result.resultKey());
    }

    /** @param threadFailures where the relay's thread deaths are counted with the engine's, for health */
    static ResultRelay start(EngineSettings settings, StreamThreadFailures threadFailures) {
        KafkaStreams streams = new KafkaStreams(topology(), properties(settings));
        streams.setUncaughtExceptionHandler(error -> {
            // Replaced, it reads the same record again: one that keeps failing turns health DOWN, as the engine's do.
            threadFailures.record();
            LOG.error("Result relay thread failed; replacing it", error);
            return StreamThreadExceptionResponse.REPLACE_THREAD;
        });
        streams.start();
        return new ResultRelay(streams);
    }

    static Properties properties(EngineSettings settings) {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, settings.applicationId() + "-result-relay");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, settings.bootstrapServers());
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.AT_LEAST_ONCE);
        // Offsets are committed after the copies are acknowledged; committing often keeps the repeats after a crash few.
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, settings.commitInterval().toMillis());
        props.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, 1);
        props.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, (int) settings.replication());
        props.put(StreamsConfig.STATE_DIR_CONFIG, settings.stateDir().toAbsolutePath().toString());
        props.put(StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG, LogAndContinueExceptionHandler.class);
        props.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG, LogAndContinueProcessingExceptionHandler.class);
        // As the engine's producer: no linger, one request in flight, so a lone copy leaves at once and copies made while
        // a request is out go together in the next one.
        props.put(StreamsConfig.producerPrefix(ProducerConfig.LINGER_MS_CONFIG), 0);
        props.put(StreamsConfig.producerPrefix(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION), 1);
        // Kafka's default. A poll returns as soon as a result is fetched, so the wait bounds only how often an idle relay
        // goes round its loop (and how late its at-least-once commit may come): at 10 ms that was 2% of a core on an idle
        // platform (docs/decisions.md, "An idle platform's loops").
        props.put(StreamsConfig.POLL_MS_CONFIG, 100);
        // One input topic, so each task has one partition and nothing to wait for (see EngineSettings#streamsProperties).
        props.put(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG, StreamsConfig.MAX_TASK_IDLE_MS_DISABLED);
        // A result published before the relay's group first committed is still copied.
        props.put(StreamsConfig.consumerPrefix(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG), "earliest");
        // As the engine's own group: a relay restarted after a crash rejoins as itself at once, and a dead one is noticed
        // after the broker's minimum session. A new member would wait for its dead self's session first, and a stop
        // right after such a restart would wait for that rebalance.
        props.put(StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG), 6_000);
        props.put(StreamsConfig.consumerPrefix(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG), 1_500);
        props.put(StreamsConfig.consumerPrefix(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG),
                settings.memberId() + "-relay");
        return KafkaClientSecurity.ofProcess().applyTo(props);
    }

    public boolean isRunning() {
        return streams.state() == KafkaStreams.State.RUNNING;
    }

    public KafkaStreams.State state() {
        return streams.state();
    }

    /** Commits what was copied and leaves the group, so another replica's relay takes over at once. */
    @Override
    public void close() {
        streams.close(CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP)
                .withTimeout(Duration.ofSeconds(30)));
    }

    /** Stops without committing, as a crash would: the results copied since the last commit are copied again. */
    public void closeAbruptly() {
        streams.close(Duration.ZERO);
    }
}
