package dev.sopline.gateway.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.github.f4b6a3.ulid.UlidCreator;
import dev.sopline.engine.api.secret.CommandSignature;
import dev.sopline.engine.api.serde.RecordSerde;
import dev.sopline.gateway.config.SopProperties;
import dev.sopline.schemas.command.Command;
import dev.sopline.schemas.command.CommandReply;
import dev.sopline.schemas.command.SubmitStep;
import dev.sopline.testing.SharedKafka;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.NotEnoughReplicasException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A command's wait for its reply, on topics of its own on the shared embedded broker where no engine answers: the
 * reply comes either from the engine in the gateway's JVM or from the replies topic, whichever is first.
 */
class CommandBusIT {

    /** Two for each workspace, three for one alone, one kept for the others. */
    private static final int IN_FLIGHT_LIMIT = 4;

    private final String commands = "commands-" + UlidCreator.getMonotonicUlid();
    private final String replies = "replies-" + UlidCreator.getMonotonicUlid();
    private final AtomicBoolean everyReplyToldHere = new AtomicBoolean();
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private CommandBus bus;

    @BeforeEach
    void start() throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", SharedKafka.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(commands, 2, (short) 1), new NewTopic(replies, 2, (short) 1))).all().get();
        }
        bus = new CommandBus(properties(), meters, commands, replies, everyReplyToldHere::get, IN_FLIGHT_LIMIT,
                () -> CommandSignature.of(new byte[32]));
        bus.start();
        await().atMost(Duration.ofSeconds(20)).until(bus::isHealthy);
    }

    @AfterEach
    void stop() {
        bus.stop();
    }

    @Test
    void shouldAnswerWithTheReplyTheEngineInItsJvmHandsOverWhenNoneComesOnTheTopic() throws Exception {
        SubmitStep command = submit();
        CompletableFuture<CommandReply> answer = CompletableFuture.supplyAsync(() -> bus.send(command));
        await().atMost(Duration.ofSeconds(10)).until(() -> bus.waiting() == 1);

        bus.replied(CommandReply.ok("another-command", 200, null));
        Thread.sleep(300);
        assertThat(answer).as("answered with another command's reply").isNotDone();

        CommandReply reply = CommandReply.ok(command.commandId(), 200, Map.of("step", "draft"));
        bus.replied(reply);
        assertThat(answer.get(10, TimeUnit.SECONDS)).isEqualTo(reply);
        assertThat(bus.waiting()).isZero();
    }

    @Test
    void shouldAnswerAReplyDecidedHereExactlyAsItsCopyOnTheTopicWouldAnswer() throws Exception {
        SubmitStep command = submit();
        CompletableFuture<CommandReply> answer = CompletableFuture.supplyAsync(() -> bus.send(command));
        await().atMost(Duration.ofSeconds(10)).until(() -> bus.waiting() == 1);

        // The engine's reply holds its own types; the answer is shaped from plain JSON values, as the topic's copy holds.
        CommandReply decided = CommandReply.ok(command.commandId(), 200, new Step("draft", "completed", Instant.parse("2026-03-02T08:00:00.120Z")));
        bus.replied(decided);

        RecordSerde<CommandReply> serde = new RecordSerde<>(CommandReply.class);
        CommandReply onTheTopic = serde.deserializer().deserialize(replies, serde.serializer().serialize(replies, decided));
        assertThat(answer.get(10, TimeUnit.SECONDS)).isEqualTo(onTheTopic);
        assertThat(onTheTopic.body()).isInstanceOf(Map.class);
    }

    /** A body of the engine's own type. */
    record Step(String id, String state, Instant completedAt) {}

    @Test
    void shouldAnswerWithTheReplyOnTheTopicForACommandDecidedElsewhere() throws Exception {
        SubmitStep command = submit();
        CompletableFuture<CommandReply> answer = CompletableFuture.supplyAsync(() -> bus.send(command));
        await().atMost(Duration.ofSeconds(10)).until(() -> bus.waiting() == 1);

        CommandReply reply = CommandReply.rejected(command.commandId(), 409, "step_not_active", "The step is not active");
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                SharedKafka.bootstrapServers()), new StringSerializer(), new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(replies, command.commandId(),
                    new RecordSerde<>(CommandReply.class).serializer().serialize(replies, reply))).get();
        }
        assertThat(answer.get(10, TimeUnit.SECONDS)).isEqualTo(reply);
    }

    /**
     * While the engine in the JVM decides every command the replies topic is not read; when a rebalance gives another
     * replica some of the partitions, a reply that replica wrote in the meantime still answers the request.
     */
    @Test
    void shouldAnswerWithAReplyWrittenElsewhereWhileTheTopicWasNotReadOnceTheEngineHereNoLongerDecidesEverything() throws Exception {
        everyReplyToldHere.set(true);
        await().atMost(Duration.ofSeconds(10)).until(() -> !bus.readsRepliesTopic());
        SubmitStep command = submit();
        CompletableFuture<CommandReply> answer = CompletableFuture.supplyAsync(() -> bus.send(command));
        await().atMost(Duration.ofSeconds(10)).until(() -> bus.waiting() == 1);

        CommandReply reply = CommandReply.ok(command.commandId(), 200, Map.of("step", "draft"));
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                SharedKafka.bootstrapServers()), new StringSerializer(), new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(replies, command.commandId(),
                    new RecordSerde<>(CommandReply.class).serializer().serialize(replies, reply))).get();
        }
        Thread.sleep(500);
        assertThat(answer).as("answered from a topic it does not read").isNotDone();

        everyReplyToldHere.set(false);
        assertThat(answer.get(10, TimeUnit.SECONDS)).isEqualTo(reply);
        assertThat(bus.readsRepliesTopic()).isTrue();
    }

    /**
     * A workspace alone may use the others' idle room, but not their reserve; another workspace still finds that at
     * once, and one more beyond the limit is turned away at once and not published. As the flooding workspace's
     * commands are answered, their room goes to the others first.
     */
    @Test
    void shouldTurnAwayACommandBeyondItsWorkspacesRoomUnpublishedAndGiveTheRoomOfAnAnsweredOneToTheOthersFirst() throws Exception {
        SubmitStep a1 = submit("team-a");
        SubmitStep a2 = submit("team-a");
        SubmitStep a3 = submit("team-a");
        List<CompletableFuture<CommandReply>> aAnswers = new ArrayList<>();
        for (SubmitStep a : List.of(a1, a2, a3)) {
            aAnswers.add(CompletableFuture.supplyAsync(() -> bus.send(a)));
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> bus.waiting() == 3);

        SubmitStep a4 = submit("team-a");
        assertThatThrownBy(() -> bus.send(a4)).as("a fourth of one workspace would take the others' reserve")
                .isInstanceOf(CommandsInFlightFullException.class);
        assertThat(bus.turnsAway("team-a")).as("the look before a request's body is parsed").isTrue();
        assertThat(bus.turnsAway("team-b")).as("the look for a workspace with room").isFalse();
        SubmitStep b1 = submit("team-b");
        CompletableFuture<CommandReply> b1Answer = CompletableFuture.supplyAsync(() -> bus.send(b1));
        await().atMost(Duration.ofSeconds(10)).until(() -> bus.waiting() == IN_FLIGHT_LIMIT);
        SubmitStep c1 = submit("team-c");
        assertThatThrownBy(() -> bus.send(c1)).as("one beyond the limit").isInstanceOf(CommandsInFlightFullException.class);
        assertThat(meters.counter("sop.gateway.commands.turned_away").count()).as("two sent, one looked at").isEqualTo(3.0);
        assertThat(aAnswers.get(0)).as("the commands let in still wait").isNotDone();

        CommandReply reply = CommandReply.ok(a1.commandId(), 200, null);
        bus.replied(reply);
        assertThat(aAnswers.get(0).get(10, TimeUnit.SECONDS)).isEqualTo(reply);
        SubmitStep a5 = submit("team-a");
        assertThatThrownBy(() -> bus.send(a5)).as("the room answered is the others' first").isInstanceOf(CommandsInFlightFullException.class);
        SubmitStep b2 = submit("team-b");
        CompletableFuture<CommandReply> b2Answer = CompletableFuture.supplyAsync(() -> bus.send(b2));
        await().atMost(Duration.ofSeconds(10)).until(() -> bus.waiting() == IN_FLIGHT_LIMIT);
        for (SubmitStep waiting : List.of(a2, a3, b1, b2)) {
            bus.replied(CommandReply.ok(waiting.commandId(), 200, null));
        }
        for (CompletableFuture<CommandReply> answer : List.of(aAnswers.get(1), aAnswers.get(2), b1Answer, b2Answer)) {
            assertThat(answer.get(10, TimeUnit.SECONDS).status()).isEqualTo(200);
        }

        // Published: the ones let in; never the ones turned away.
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                SharedKafka.bootstrapServers(), ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"), new StringDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(commands).stream()
                    .map(info -> new TopicPartition(commands, info.partition())).toList();
            consumer.assign(partitions);
            RecordSerde<Command> serde = new RecordSerde<>(Command.class);
            List<String> published = new ArrayList<>();
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                consumer.poll(Duration.ofMillis(100)).forEach(record -> published.add(serde.deserializer().deserialize(commands, record.value()).commandId()));
                assertThat(published).containsExactlyInAnyOrder(a1.commandId(), a2.commandId(), a3.commandId(), b1.commandId(), b2.commandId());
            });
        }
    }

    /**
     * The engine reads a command only once the broker holds it, so its reply answers the request whether or not the
     * broker's acknowledgement has come back to the gateway yet: the request waits for the reply alone.
     */
    @Test
    void shouldAnswerWithTheReplyWhileTheBrokersAcknowledgementIsStillOnItsWay() throws Exception {
        MockProducer<String, byte[]> heldBack = new MockProducer<>(false, null, new StringSerializer(), new ByteArraySerializer());
        CommandBus waitsForNoAcknowledgement = busOn(heldBack);
        try {
            SubmitStep command = submit();
            CompletableFuture<CommandReply> answer = CompletableFuture.supplyAsync(() -> waitsForNoAcknowledgement.send(command));
            await().atMost(Duration.ofSeconds(10)).until(() -> heldBack.history().size() == 1);

            CommandReply reply = CommandReply.ok(command.commandId(), 201, Map.of("id", command.instanceId()));
            waitsForNoAcknowledgement.replied(reply);
            assertThat(answer.get(5, TimeUnit.SECONDS)).isEqualTo(reply);
        } finally {
            waitsForNoAcknowledgement.stop();
        }
    }

    @Test
    void shouldAnswerUnavailableAtOnceWhenTheBrokerRefusesTheCommand() throws Exception {
        MockProducer<String, byte[]> refusing = new MockProducer<>(false, null, new StringSerializer(), new ByteArraySerializer());
        CommandBus refused = busOn(refusing);
        try {
            CompletableFuture<CommandReply> answer = CompletableFuture.supplyAsync(() -> refused.send(submit()));
            await().atMost(Duration.ofSeconds(10)).until(() -> refusing.history().size() == 1);

            refusing.errorNext(new NotEnoughReplicasException("Not enough in-sync replicas"));
            // Within the 20 s the bus would otherwise wait for a reply.
            assertThatThrownBy(() -> answer.get(5, TimeUnit.SECONDS)).hasCauseInstanceOf(EngineUnavailableException.class)
                    .hasMessageContaining("Expected to publish the command, but Not enough in-sync replicas");
            assertThat(refused.waiting()).isZero();
        } finally {
            refused.stop();
        }
    }

    /**
     * With the broker out of reach, the producer's wait for metadata is bounded by the command timeout (2 s here), not
     * Kafka's 60 s, and the partitions an idempotent start looks at answer unavailable (503), not a 500.
     */
    @Test
    void shouldAnswerUnavailableWithinTheCommandTimeoutWhenTheBrokerIsOutOfReach() throws Exception {
        CommandBus outOfReach = new CommandBus(properties(Duration.ofSeconds(2)), meters, commands, replies, everyReplyToldHere::get,
                IN_FLIGHT_LIMIT, () -> CommandSignature.of(new byte[32]), settings -> {
                    // The bus's own settings, with a broker that is not there (the replies still come from the shared one).
                    Map<String, Object> unreachable = new java.util.HashMap<>(settings);
                    unreachable.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:1");
                    return new KafkaProducer<>(unreachable, new StringSerializer(), new ByteArraySerializer());
                });
        outOfReach.start();
        try {
            CompletableFuture<CommandReply> answer = CompletableFuture.supplyAsync(() -> outOfReach.send(submit()));
            assertThatThrownBy(() -> answer.get(15, TimeUnit.SECONDS)).hasCauseInstanceOf(EngineUnavailableException.class);

            CompletableFuture<String> instanceId = CompletableFuture.supplyAsync(() -> outOfReach.instanceIdOnPartitionOf("default|tok|key-1"));
            assertThatThrownBy(() -> instanceId.get(15, TimeUnit.SECONDS)).hasCauseInstanceOf(EngineUnavailableException.class);
        } finally {
            outOfReach.stop();
        }
    }

    private CommandBus busOn(MockProducer<String, byte[]> producer) {
        CommandBus bus = new CommandBus(properties(), meters, commands, replies, everyReplyToldHere::get, IN_FLIGHT_LIMIT,
                () -> CommandSignature.of(new byte[32]), settings -> producer);
        bus.start();
        return bus;
    }

    /** The shared broker and a command timeout of 20 s. */
    private static SopProperties properties() {
        return properties(Duration.ofSeconds(20));
    }

    private static SopProperties properties(Duration commandTimeout) {
        return new SopProperties(new SopProperties.Kafka(SharedKafka.bootstrapServers()), null, Path.of("unused"),
                null, null, null, commandTimeout, null, null);
    }

    @Test
    void shouldRefuseToStartWithoutRoomForOneCommand() {
        assertThatThrownBy(() -> new CommandBus(null, meters, commands, replies, () -> false, 0, () -> null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("SOP_COMMANDS_IN_FLIGHT");
    }

    private static SubmitStep submit() {
        return submit("default");
    }

    private static SubmitStep submit(String workspace) {
        return new SubmitStep("submit-" + UlidCreator.getMonotonicUlid(), workspace, UlidCreator.getMonotonicUlid().toString(), "two-step",
                "draft", Map.of("text", "t"), null);
    }
}
