package dev.sopline.engine.it;

import dev.sopline.engine.api.secret.CommandSignature;
import dev.sopline.engine.api.secret.EngineSecret;
import dev.sopline.engine.api.topic.EngineTopics;
import dev.sopline.engine.api.serde.JsonSerde;
import dev.sopline.engine.api.serde.RecordSerde;
import dev.sopline.schemas.command.Command;
import dev.sopline.schemas.command.CommandReply;
import dev.sopline.schemas.command.RegisterProcess;
import dev.sopline.schemas.command.ResolveCallback;
import dev.sopline.schemas.command.StartInstance;
import dev.sopline.schemas.definition.ProcessFiles;
import dev.sopline.schemas.event.StateChangeEvents;
import dev.sopline.schemas.event.StepReady;
import dev.sopline.schemas.event.StepResult;
import dev.sopline.schemas.topic.Topics;
import io.cloudevents.CloudEvent;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * What the gateway and a worker do, reduced to the Kafka side: publish commands and wait for their replies, record
 * every event, and resolve automated steps as a worker group member would. Replies and steps are read committed, or,
 * as the gateway and the SDK workers do, uncommitted ({@link #readingUncommitted}); events are always read committed,
 * as subscribers read them.
 */
final class EngineClient implements AutoCloseable {

    /** A step a worker or a third party ran: the instance, the step, the attempt and the callback id it was handed. */
    record RanStep(String instanceId, String stepId, int attempt, String callbackId) {

        static RanStep of(StepReady ready) {
            return new RanStep(ready.instanceId(), ready.stepId(), ready.attempt(), ready.callbackId());
        }
    }

    private final String bootstrap;
    private CommandSignature signature;
    private final String isolation;
    private final Map<String, Integer> repliesSeen = new ConcurrentHashMap<>();
    private final Map<String, CommandReply> firstReplies = new ConcurrentHashMap<>();
    private final List<RanStep> ran = new CopyOnWriteArrayList<>();
    private final KafkaProducer<String, byte[]> producer;
    private final Map<String, CompletableFuture<CommandReply>> waiting = new ConcurrentHashMap<>();
    private final List<CloudEvent> events = new CopyOnWriteArrayList<>();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final List<Thread> threads = new CopyOnWriteArrayList<>();

    EngineClient(String bootstrap) {
        this(bootstrap, "read_committed");
    }

    static EngineClient readingUncommitted(String bootstrap) {
        return new EngineClient(bootstrap, "read_uncommitted");
    }

    private EngineClient(String bootstrap, String isolation) {
        this.bootstrap = bootstrap;
        this.isolation = isolation;
        try (var admin = org.apache.kafka.clients.admin.Admin.create(Map.<String, Object>of("bootstrap.servers", bootstrap))) {
            EngineTopics.ensure(admin, 6, 6, (short) 1);
        }
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        props.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        producer = new KafkaProducer<>(props, new StringSerializer(), new ByteArraySerializer());
        follow(EngineTopics.REPLIES, isolation, record -> {
            CommandReply reply = new RecordSerde<>(CommandReply.class).deserializer().deserialize(record.topic(), record.value());
            repliesSeen.merge(reply.commandId(), 1, Integer::sum);
            firstReplies.putIfAbsent(reply.commandId(), reply);
            CompletableFuture<CommandReply> future = waiting.remove(reply.commandId());
            if (future != null) {
                future.complete(reply);
            }
        });
        follow(Topics.EVENTS, "read_committed", record -> events.add(StateChangeEvents.read(record.value())));
    }

    /** Reads a topic from its end on, outside any group, as every gateway replica reads replies. */
    private void follow(String topic, String isolationLevel, java.util.function.Consumer<ConsumerRecord<String, byte[]>> handler) {
        CompletableFuture<Void> assigned = new CompletableFuture<>();
        Thread thread = new Thread(() -> {
            try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(consumerProps(null, isolationLevel), new StringDeserializer(),
                    new ByteArrayDeserializer())) {
                var partitions = consumer.partitionsFor(topic).stream()
                        .map(info -> new org.apache.kafka.common.TopicPartition(topic, info.partition())).toList();
                consumer.assign(partitions);
                consumer.seekToEnd(partitions);
                partitions.forEach(consumer::position);
                assigned.complete(null);
                while (running.get()) {
                    consumer.poll(Duration.ofMillis(50)).forEach(handler);
                }
            }
        }, "follow-" + topic);
        thread.setDaemon(true);
        thread.start();
        threads.add(thread);
        assigned.join();
    }

    /** A worker group member that answers every automated step with {@code outputs}, and remembers each step it ran. */
    void startWorker(String group, Map<String, Object> outputs) {
        Thread thread = new Thread(() -> {
            try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(consumerProps(group, isolation), new StringDeserializer(),
                    new ByteArrayDeserializer())) {
                consumer.subscribe(Topics.AUTOMATED_STEPS);
                var reader = new JsonSerde<>(StepReady.class).deserializer();
                var writer = new JsonSerde<>(StepResult.class).serializer();
                while (running.get()) {
                    for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(50))) {
                        StepReady ready = reader.deserialize(record.topic(), record.value());
                        ran.add(RanStep.of(ready));
                        StepResult result = new StepResult(ready.workspace(), ready.instanceId(), ready.stepId(), ready.attempt(),
                                outputs, null, null, group, java.time.Instant.now());
                        producer.send(new ProducerRecord<>(Topics.STEP_RESULTS, ready.instanceId(), writer.serialize(Topics.STEP_RESULTS, result)));
                    }
                    consumer.commitSync();
                }
            }
        }, "worker-" + group);
        thread.setDaemon(true);
        thread.start();
        threads.add(thread);
    }

    /**
     * A third party that calls back once for each webhook step it is handed, with the callback id it was handed and
     * {@code payload}, and remembers each step.
     */
    void startCallbackParty(String group, Map<String, Object> payload) {
        Set<RanStep> called = ConcurrentHashMap.newKeySet();
        Thread thread = new Thread(() -> {
            try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(consumerProps(group, isolation), new StringDeserializer(),
                    new ByteArrayDeserializer())) {
                consumer.subscribe(List.of(Topics.stepReady(dev.sopline.schemas.definition.StepType.WEBHOOK)));
                var reader = new JsonSerde<>(StepReady.class).deserializer();
                while (running.get()) {
                    for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(50))) {
                        StepReady ready = reader.deserialize(record.topic(), record.value());
                        RanStep step = RanStep.of(ready);
                        ran.add(step);
                        if (called.add(new RanStep(step.instanceId(), step.stepId(), step.attempt(), null))) {
                            send(new ResolveCallback(commandId(), ready.workspace(), ready.instanceId(), ready.callbackId(), payload));
                        }
                    }
                    consumer.commitSync();
                }
            }
        }, "callbacks-" + group);
        thread.setDaemon(true);
        thread.start();
        threads.add(thread);
    }

    private Properties consumerProps(String group, String isolationLevel) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolationLevel);
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        // Workers subscribe to every team's topic by pattern: a topic created meanwhile is found within this.
        props.put(ConsumerConfig.METADATA_MAX_AGE_CONFIG, 500);
        if (group != null) {
            props.put(ConsumerConfig.GROUP_ID_CONFIG, group);
            props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        }
        return props;
    }

    CompletableFuture<CommandReply> send(Command command) {
        return send(command, null);
    }

    /** With the record stamped {@code timestamp} by its writer (epoch milliseconds), as a host with its own clock does. */
    CompletableFuture<CommandReply> send(Command command, Long timestamp) {
        CompletableFuture<CommandReply> future = new CompletableFuture<>();
        waiting.put(command.commandId(), future);
        byte[] value = new RecordSerde<>(Command.class).serializer().serialize(EngineTopics.COMMANDS, command);
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(EngineTopics.COMMANDS, null, timestamp, command.key(), value);
        signature().sign(record.headers(), value);
        producer.send(record);
        return future;
    }

    /** The platform's signature, under the secret the engines keep in the broker, read at the first command. */
    private synchronized CommandSignature signature() {
        if (signature == null) {
            signature = CommandSignature.of(EngineSecret.resolve(null, bootstrap));
        }
        return signature;
    }

    CommandReply sendAndWait(Command command) {
        try {
            return send(command).get(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError("no reply to " + command, e);
        }
    }

    CommandReply register(String workspace, String yaml) {
        var loaded = (ProcessFiles.Loaded) ProcessFiles.load(yaml.getBytes(StandardCharsets.UTF_8));
        return sendAndWait(new RegisterProcess(commandId(), workspace, loaded.file(), yaml));
    }

    CompletableFuture<CommandReply> start(String workspace, String instanceId, String process, Map<String, Object> inputs) {
        return send(new StartInstance(commandId(), workspace, instanceId, process, inputs, null, StartInstance.API, null));
    }

    /** A start naming the version the sender saw published, as the gateway sends it. */
    CompletableFuture<CommandReply> start(String workspace, String instanceId, String process, String seenVersion,
            Map<String, Object> inputs) {
        return send(new StartInstance(commandId(), workspace, instanceId, process, inputs, null, StartInstance.API, seenVersion));
    }

    List<CloudEvent> events() {
        return List.copyOf(events);
    }

    /** The first reply seen to each command, by command id. */
    Map<String, CommandReply> replies() {
        return Map.copyOf(firstReplies);
    }

    /** How many replies were seen to the command: more than one when a replay answered it again. */
    int repliesTo(String commandId) {
        return repliesSeen.getOrDefault(commandId, 0);
    }

    /** Every step the worker ran, in order, repeats included. */
    List<RanStep> ran() {
        return List.copyOf(ran);
    }

    /** A process of one form step, {@code sign}, whose one output is the boolean {@code ok}. */
    static String oneFormStep(String processName) {
        return """
                engine: "0.1"
                process:
                  name: %s
                  version: "1.0"
                  steps:
                    - id: sign
                      type: form
                      outputs:
                        - name: ok
                          type: boolean
                """.formatted(processName);
    }

    static String commandId() {
        return UUID.randomUUID().toString();
    }

    @Override
    public void close() {
        running.set(false);
        for (Thread thread : threads) {
            try {
                thread.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        producer.close(Duration.ofSeconds(5));
    }
}
