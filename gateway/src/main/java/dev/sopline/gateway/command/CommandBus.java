package dev.sopline.gateway.command;

import dev.sopline.engine.api.DecisionListener;
import dev.sopline.engine.api.query.StateUnavailableException;
import dev.sopline.engine.api.secret.CommandSignature;
import dev.sopline.engine.api.secret.EngineSecret;
import dev.sopline.engine.api.topic.EngineTopics;
import dev.sopline.gateway.engine.EnginesKey;
import dev.sopline.engine.api.serde.RecordSerde;
import dev.sopline.schemas.kafka.KafkaClientSecurity;
import dev.sopline.gateway.config.SopProperties;
import dev.sopline.gateway.web.ApiException;
import dev.sopline.gateway.web.WaitingRoom;
import dev.sopline.gateway.engine.LocalDecisions;
import dev.sopline.gateway.store.TopicTail;
import dev.sopline.schemas.command.Command;
import dev.sopline.schemas.command.CommandReply;
import dev.sopline.schemas.command.ErrorCodes;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import dev.sopline.gateway.config.StopsConcurrently;
import org.springframework.stereotype.Component;

/**
 * Publishes commands and waits for the engine's replies. Every gateway replica reads every reply partition (no
 * consumer group) and completes the requests it is waiting for, so a reply reaches the replica that asked whatever
 * partition it lands on.
 *
 * <p>An engine in the same JVM hands its replies over directly ({@link #replied}) as it decides them, which answers the
 * request without the reply's produce and fetch; the replies topic still carries every reply, and whichever comes
 * first completes the request. While that engine decides every command, every reply comes that way, and the reader of
 * the replies topic idles ({@link TopicTail#idleWhile}); when it stops deciding them all (a rebalance), the reader
 * goes back over the replies of the last {@link #LOOK_BACK_BEYOND_TIMEOUT} plus the command timeout, which holds
 * every reply a request still waits for.
 *
 * <p>Written on the plain clients rather than Spring Kafka's {@code ReplyingKafkaTemplate}, which correlates through
 * headers the replier must echo; the engine's replies carry the command id in their key instead, set by the
 * processor that decided them.
 */
@Component
public class CommandBus implements StopsConcurrently, DecisionListener {

    /** Beyond the command timeout: for clocks of gateway hosts that differ a little. */
    static final Duration LOOK_BACK_BEYOND_TIMEOUT = Duration.ofMinutes(1);

    private final SopProperties properties;
    /** Each waiting request's reply, read on the request's own thread: the topic's bytes, or a copy of the engine's. */
    private final Map<String, CompletableFuture<Supplier<CommandReply>>> waiting = new ConcurrentHashMap<>();
    private final RecordSerde<Command> commands = new RecordSerde<>(Command.class);
    private final RecordSerde<CommandReply> replySerde = new RecordSerde<>(CommandReply.class);
    private final TopicTail replies = new TopicTail();
    private final MeterRegistry meters;
    private final String commandsTopic;
    private final String repliesTopic;
    private final BooleanSupplier everyReplyToldHere;
    private final Map<Class<?>, Map<String, Timer>> roundTrips = new ConcurrentHashMap<>();
    private final WaitingRoom waitingRoom;
    private final Counter turnedAway;
    private final Supplier<CommandSignature> signature;
    private final Function<Map<String, Object>, Producer<String, byte[]>> producers;
    private Producer<String, byte[]> producer;

    @org.springframework.beans.factory.annotation.Autowired
    public CommandBus(SopProperties properties, MeterRegistry meters, LocalDecisions localDecisions,
                      @org.springframework.beans.factory.annotation.Value("${sop.commands-in-flight:128}") int inFlightLimit) {
        this(properties, meters, EngineTopics.COMMANDS, EngineTopics.REPLIES, localDecisions, inFlightLimit,
                new EnginesKey<>(() -> EngineSecret.resolve(properties.engine().secret(), properties.kafka().bootstrapServers()),
                        CommandSignature::of, Clock.systemUTC()));
    }

    /**
     * @param commandsTopic where commands go
     * @param repliesTopic where the engine's replies come from
     * @param everyReplyToldHere whether every reply is told to {@link #replied} now, by an engine in this JVM
     * @param inFlightLimit how many commands may wait for their replies at once; {@link #send} turns away more
     * @param signature signs every command, as the engine takes only the platform's signed commands ({@link CommandSignature})
     */
    CommandBus(SopProperties properties, MeterRegistry meters, String commandsTopic, String repliesTopic, BooleanSupplier everyReplyToldHere,
               int inFlightLimit, Supplier<CommandSignature> signature) {
        this(properties, meters, commandsTopic, repliesTopic, everyReplyToldHere, inFlightLimit, signature,
                settings -> new KafkaProducer<>(KafkaClientSecurity.secured(settings), new StringSerializer(), new ByteArraySerializer()));
    }

    /** @param producers makes the commands' producer from its settings: a test's, to hold back the broker's acknowledgements */
    CommandBus(SopProperties properties, MeterRegistry meters, String commandsTopic, String repliesTopic, BooleanSupplier everyReplyToldHere,
               int inFlightLimit, Supplier<CommandSignature> signature, Function<Map<String, Object>, Producer<String, byte[]>> producers) {
        this.producers = producers;
        this.signature = signature;
        this.properties = properties;
        this.meters = meters;
        this.commandsTopic = commandsTopic;
        this.repliesTopic = repliesTopic;
        this.everyReplyToldHere = everyReplyToldHere;
        if (inFlightLimit < 1) {
            throw new IllegalArgumentException("Expected SOP_COMMANDS_IN_FLIGHT to be at least 1, but got " + inFlightLimit);
        }
        this.waitingRoom = new WaitingRoom(inFlightLimit);
        this.turnedAway = Counter.builder("sop.gateway.commands.turned_away")
                .description("Commands answered 503 unpublished because their workspace had no room left among the commands waiting for the engine")
                .register(meters);
    }

    /**
     * Publishes the command and waits for its reply.
     *
     * <p>A request thread waits here for the reply. When the engine decides fewer commands a second than arrive, the
     * waits grow until every request thread waits and new requests queue in front of the server, where no timeout
     * applies: each client then gives up before its turn, and the platform decides commands nobody waits for any more.
     * So no more than {@code inFlightLimit} commands wait at once, and a command beyond them is turned away unpublished,
     * at once ({@link CommandsInFlightFullException}, 503): the ones let in wait about the limit over the engine's
     * rate, and one turned away is never decided. The room is shared among workspaces ({@link WaitingRoom}): one
     * alone may use most of it, and a workspace that floods the gateway is turned away before the others are.
     *
     * @throws CommandsInFlightFullException when the command's workspace has no room left among the commands waiting;
     *     the command is not published
     * @throws EngineUnavailableException when the command cannot be published or no reply comes within the timeout;
     *     the command may still be applied, once, later
     * @throws ApiException 413 {@code payload_too_large} when the command is too large for one record; it is not published
     */
    public CommandReply send(Command command) {
        if (!waitingRoom.tryEnter(command.workspace())) {
            turnedAway.increment();
            throw new CommandsInFlightFullException(waitingRoom.limit());
        }
        try {
            return publishAndWait(command);
        } finally {
            waitingRoom.leave(command.workspace());
        }
    }

    /**
     * Whether a command of the workspace would be turned away now by {@link #send}, counted as turned away if so: asked
     * before a request's body is parsed ({@link WaitsForTheEngine}), so that under overload a write that cannot be let in
     * costs a fraction of what it costs once parsed. A command asked about and let in may still be turned away by
     * {@link #send}.
     */
    public boolean turnsAway(String workspace) {
        if (waitingRoom.hasRoomFor(workspace)) {
            return false;
        }
        turnedAway.increment();
        return true;
    }

    private CommandReply publishAndWait(Command command) {
        long started = System.nanoTime();
        CompletableFuture<Supplier<CommandReply>> reply = new CompletableFuture<>();
        waiting.put(command.commandId(), reply);
        try {
            // Only the reply is waited for, not the broker's acknowledgement before it: the engine reads a command only
            // once the broker holds it, so a reply means the command was taken, and the request's thread wakes once
            // instead of twice. A send that fails ends the wait at once.
            producer.send(signed(command), (metadata, error) -> {
                if (error != null) {
                    reply.completeExceptionally(error);
                }
            });
            CommandReply answer = reply.get(properties.commandTimeout().toMillis(), TimeUnit.MILLISECONDS).get();
            roundTrip(command, String.valueOf(answer.status())).record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
            return answer;
        } catch (TimeoutException e) {
            roundTrip(command, "timeout").record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
            throw new EngineUnavailableException("Expected the engine to answer within " + properties.commandTimeout().toMillis() + " ms", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RecordTooLargeException) {
                throw payloadTooLarge();
            }
            throw new EngineUnavailableException("Expected to publish the command, but " + e.getCause().getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new EngineUnavailableException("Interrupted while waiting for the engine", e);
        } finally {
            waiting.remove(command.commandId());
        }
    }

    /**
     * Publishes a command that the engine answers no one for (a worker's heartbeat), and returns once the broker
     * holds it.
     *
     * @throws EngineUnavailableException when the command cannot be published within the command timeout
     * @throws ApiException 413 {@code payload_too_large} when the command is too large for one record
     */
    public void publish(Command command) {
        try {
            producer.send(signed(command)).get(properties.commandTimeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RecordTooLargeException) {
                throw payloadTooLarge();
            }
            throw new EngineUnavailableException("Expected to publish the command, but " + e.getMessage(), e);
        } catch (TimeoutException e) {
            throw new EngineUnavailableException("Expected to publish the command, but " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new EngineUnavailableException("Interrupted while publishing the command", e);
        }
    }

    /**
     * The answer to a command whose record the producer or the broker refused for its size. A body within the 1 MiB
     * HTTP limit can still make a larger record, as commands are written in Smile (a number such as {@code 1.5} takes
     * 4 bytes in JSON and 11 in Smile): that is the client's data over the limit, not a broker to retry, as every retry
     * would be refused the same way.
     */
    private static ApiException payloadTooLarge() {
        return new ApiException(413, ErrorCodes.PAYLOAD_TOO_LARGE,
                "Expected the request's data to fit one command of at most 1 MiB as the engine stores it; send less data");
    }

    /**
     * The command's record, signed as the platform's.
     *
     * @throws EngineUnavailableException while the engines' secret cannot be read, before anything is published
     */
    private ProducerRecord<String, byte[]> signed(Command command) {
        CommandSignature signer;
        try {
            signer = signature.get();
        } catch (StateUnavailableException e) {
            throw new EngineUnavailableException("Expected to sign the command, but " + e.getMessage(), e);
        }
        byte[] value = commands.serializer().serialize(commandsTopic, command);
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(commandsTopic, command.key(), value);
        signer.sign(record.headers(), value);
        return record;
    }

    /** Commands sent and replies received, by command kind and reply status, with their round-trip latency. */
    private Timer roundTrip(Command command, String status) {
        Command kind = command instanceof dev.sopline.schemas.command.IdempotentCommand idempotent ? idempotent.command() : command;
        // Kept per kind and status, so a request records into its timer without building the meter's id and looking it
        // up in the registry again.
        return roundTrips.computeIfAbsent(kind.getClass(), ignored -> new ConcurrentHashMap<>()).computeIfAbsent(status, ignored ->
                Timer.builder("sop.gateway.command.round_trip")
                        .description("From publishing a command to receiving the engine's reply")
                        .tag("command", kind.getClass().getSimpleName())
                        .tag("status", status)
                        .publishPercentileHistogram()
                        .register(meters));
    }

    /**
     * A new instance id whose partition is the one {@code partitionKey} maps to. An idempotent start is decided on the
     * partition of its key, so every retry meets the first attempt's record whatever id the retry carries.
     *
     * @throws EngineUnavailableException when the commands' topic cannot be looked at, the broker out of reach
     */
    public String instanceIdOnPartitionOf(String partitionKey) {
        int partitions;
        try {
            partitions = producer.partitionsFor(commandsTopic).size();
        } catch (KafkaException e) {
            // The topic's metadata could not be fetched within max.block.ms: the broker is out of reach.
            throw new EngineUnavailableException("Expected the partitions of the commands' topic, but " + e.getMessage(), e);
        }
        int target = EngineTopics.partitionOf(partitionKey, partitions);
        while (true) {
            String candidate = com.github.f4b6a3.ulid.UlidCreator.getMonotonicUlid().toString();
            if (EngineTopics.partitionOf(candidate, partitions) == target) {
                return candidate;
            }
        }
    }

    /**
     * @param maxBlock how long a send or a look at the topic's partitions may wait for the broker's metadata (or room in
     *     the producer's buffer) on the request's thread: the command timeout, not Kafka's 60 s
     */
    static Map<String, Object> producerSettings(String bootstrapServers, Duration maxBlock) {
        return Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ProducerConfig.MAX_BLOCK_MS_CONFIG, maxBlock.toMillis(),
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.LINGER_MS_CONFIG, 0,
                // A lone command leaves at once; commands sent while a request is out go together in the next one.
                ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1);
    }

    @Override
    public void start() {
        // The engines' secret is read now, beside the start, rather than by the first request: while it is being read,
        // other commands are answered 503 at once, and a burst of first requests would all be.
        Thread keyReader = new Thread(() -> {
            try {
                signature.get();
            } catch (RuntimeException notYet) {
                // Read again by the first command; until then nothing waits for it.
            }
        }, "engines-secret-reader");
        keyReader.setDaemon(true);
        keyReader.start();
        producer = producers.apply(producerSettings(properties.kafka().bootstrapServers(), properties.commandTimeout()));
        // Replies are read as written: the command they answer is already on the command log, so an engine transaction
        // that aborts is followed by the same command processed again and the same reply; waiting for the commit would
        // add the commit interval to every request.
        replies.idleWhile(everyReplyToldHere, properties.commandTimeout().plus(LOOK_BACK_BEYOND_TIMEOUT));
        replies.start(properties.kafka().bootstrapServers(), repliesTopic, TopicTail.Visibility.AS_WRITTEN, record -> {
            CompletableFuture<Supplier<CommandReply>> future = waiting.get(record.key());
            if (future != null) {
                future.complete(() -> replySerde.deserializer().deserialize(record.topic(), record.value()));
            }
        });
    }

    /** False while the reader of the replies topic idles, every reply being told here. */
    public boolean readsRepliesTopic() {
        return replies.isFetching();
    }

    /**
     * A reply decided by the engine in this JVM, on its stream thread: completes the waiting request, whose own
     * thread goes on with the answer. Nothing is chained on the future, so completing it only wakes that thread and
     * the stream thread does no gateway work. A later copy from the replies topic then finds nothing to complete.
     */
    @Override
    public void replied(CommandReply reply) {
        CompletableFuture<Supplier<CommandReply>> future = waiting.get(reply.commandId());
        if (future != null) {
            future.complete(() -> asOnTheTopic(reply));
        }
    }

    /**
     * The reply as a copy from the replies topic would be. The engine's reply holds its own types (an instance's view,
     * a step's); answers are shaped from the plain JSON values the topic's copy holds, so a reply decided here goes
     * through the same serde, on the request's thread, and answers exactly as one read from the topic.
     */
    private CommandReply asOnTheTopic(CommandReply reply) {
        return replySerde.deserializer().deserialize(repliesTopic, replySerde.serializer().serialize(repliesTopic, reply));
    }

    @Override
    public void stop() {
        replies.stop();
        if (producer != null) {
            producer.close(Duration.ofSeconds(5));
        }
    }

    /** How many requests wait for their reply now. */
    int waiting() {
        return waiting.size();
    }

    /** Whether the reader of the engine's replies is following its topic: without it no write can be answered. */
    public boolean isHealthy() {
        return replies.isHealthy();
    }

    @Override
    public boolean isRunning() {
        return replies.isRunning();
    }

    /** After the engine, which creates the topics; before the web server. */
    @Override
    public int getPhase() {
        return Integer.MIN_VALUE + 2000;
    }
}
