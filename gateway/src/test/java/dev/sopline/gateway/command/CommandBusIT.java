package dev.sopline.gateway.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.github.f4b6a3.ulid.UlidCreator;
import dev.sopline.engine.api.serde.RecordSerde;
import dev.sopline.gateway.config.SopProperties;
import dev.sopline.schemas.command.CommandReply;
import dev.sopline.schemas.command.SubmitStep;
import dev.sopline.testing.SharedKafka;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A command's wait for its reply, on topics of its own on the shared embedded broker where no engine answers: the
 * reply comes either from the engine in the gateway's JVM or from the replies topic, whichever is first.
 */
class CommandBusIT {

    private final String commands = "commands-" + UlidCreator.getMonotonicUlid();
    private final String replies = "replies-" + UlidCreator.getMonotonicUlid();
    private final AtomicBoolean everyReplyToldHere = new AtomicBoolean();
    private CommandBus bus;

    @BeforeEach
    void start() throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", SharedKafka.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(commands, 2, (short) 1), new NewTopic(replies, 2, (short) 1))).all().get();
        }
        SopProperties properties = new SopProperties(new SopProperties.Kafka(SharedKafka.bootstrapServers()), null, Path.of("unused"),
                null, null, null, Duration.ofSeconds(20), null, null);
        bus = new CommandBus(properties, new SimpleMeterRegistry(), commands, replies, everyReplyToldHere::get);
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

    private static SubmitStep submit() {
        return new SubmitStep("submit-" + UlidCreator.getMonotonicUlid(), "default", UlidCreator.getMonotonicUlid().toString(), "two-step",
                "draft", Map.of("text", "t"), null);
    }
}
