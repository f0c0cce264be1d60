package dev.sopline.gateway.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.github.f4b6a3.ulid.UlidCreator;
import dev.sopline.engine.api.query.StateUnavailableException;
import dev.sopline.testing.SharedKafka;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.web.context.request.async.DeferredResult;

/**
 * Waiting reads woken by their instance's records on a topic of their own on the shared embedded broker; the
 * once-a-second read again is set to an hour here, so only a record can wake a waiter early.
 */
class InstanceWaitsIT {

    private static final Duration NEVER = Duration.ofHours(1);

    private final String topic = "waits-" + UlidCreator.getMonotonicUlid();
    private final java.util.concurrent.atomic.AtomicBoolean everyChangeToldHere = new java.util.concurrent.atomic.AtomicBoolean();
    private InstanceWaits waits;
    private KafkaProducer<String, byte[]> producer;

    private void start(int perWorkspace, int total) throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", SharedKafka.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(topic, 2, (short) 1))).all().get();
        }
        waits = new InstanceWaits(SharedKafka.bootstrapServers(), topic, NEVER, perWorkspace, total, everyChangeToldHere::get);
        waits.start();
        producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedKafka.bootstrapServers()),
                new StringSerializer(), new ByteArraySerializer());
    }

    @AfterEach
    void stop() {
        if (producer != null) {
            producer.close();
        }
        if (waits != null) {
            waits.stop();
        }
    }

    private boolean hold(String workspace, String instanceId, Duration wait, Supplier<String> read, DeferredResult<String> result) {
        return waits.await(workspace, instanceId, wait, read, state -> !state.equals("running"), Function.identity(), result);
    }

    /** Reads {@code state}, counting the reads, so a test changes it only after the waiter's first read. */
    private static final class CountedState implements Supplier<String> {
        final AtomicReference<String> state = new AtomicReference<>("running");
        final java.util.concurrent.atomic.AtomicInteger reads = new java.util.concurrent.atomic.AtomicInteger();

        @Override
        public String get() {
            reads.incrementAndGet();
            return state.get();
        }

        void setAfterFirstRead(String value) {
            await().atMost(Duration.ofSeconds(10)).until(() -> reads.get() > 0);
            state.set(value);
        }
    }

    private void changed(String instanceId) throws Exception {
        producer.send(new ProducerRecord<>(topic, instanceId, new byte[] {1})).get();
    }

    /** How a change of an instance reaches the waits: its record on the topic, or the engine in the gateway's JVM. */
    enum Told { BY_ITS_RECORD, BY_THE_ENGINE_IN_THE_JVM }

    private void changed(Told told, String instanceId) throws Exception {
        if (told == Told.BY_ITS_RECORD) {
            changed(instanceId);
        } else {
            waits.instanceChanged(instanceId);
        }
    }

    @ParameterizedTest
    @EnumSource(Told.class)
    void shouldAnswerOnceAChangeOfItsInstanceShowsItSettledAndNotBefore(Told told) throws Exception {
        start(10, 10);
        CountedState state = new CountedState();
        DeferredResult<String> result = new DeferredResult<>();

        assertThat(hold("default", "instance-a", Duration.ofSeconds(60), state, result)).isTrue();
        state.setAfterFirstRead("completed");
        changed(told, "instance-b");
        Thread.sleep(1_000);
        assertThat(result.hasResult()).as("answered on a change of another instance").isFalse();

        changed(told, "instance-a");
        await().atMost(Duration.ofSeconds(10)).until(result::hasResult);
        assertThat(result.getResult()).isEqualTo("completed");
        assertThat(waits.waiting()).isZero();
    }

    /**
     * The first read is made by the caller's thread, once the waiter is registered, so the caller reads nothing before
     * it waits: a settled instance, or one that cannot be read, is answered before {@code await} returns.
     */
    @Test
    void shouldMakeTheFirstReadOnTheCallersThreadOnceRegistered() throws Exception {
        start(10, 10);
        List<String> readingThreads = new java.util.concurrent.CopyOnWriteArrayList<>();
        DeferredResult<String> running = new DeferredResult<>();
        DeferredResult<String> settled = new DeferredResult<>();
        DeferredResult<String> unreadable = new DeferredResult<>();

        assertThat(hold("default", "instance-a", Duration.ofSeconds(60), () -> {
            readingThreads.add(Thread.currentThread().getName());
            return "running";
        }, running)).isTrue();
        assertThat(hold("default", "instance-b", Duration.ofSeconds(60), () -> "completed", settled)).isTrue();
        assertThat(hold("default", "instance-c", Duration.ofSeconds(60), () -> {
            throw new IllegalStateException("not found");
        }, unreadable)).isTrue();

        assertThat(readingThreads).containsExactly(Thread.currentThread().getName());
        assertThat(running.hasResult()).isFalse();
        assertThat(settled.getResult()).isEqualTo("completed");
        assertThat(unreadable.getResult()).isInstanceOf(IllegalStateException.class);
        assertThat(waits.waiting()).as("only the running instance is waited for").isOne();
    }

    /**
     * While the engine in the JVM decides every command the topic is not read; when a rebalance gives another replica
     * some of the partitions, a change that replica wrote in the meantime still wakes the waiter.
     */
    @Test
    void shouldAnswerOnAChangeWrittenElsewhereWhileTheTopicWasNotReadOnceTheEngineHereNoLongerDecidesEverything() throws Exception {
        start(10, 10);
        everyChangeToldHere.set(true);
        await().atMost(Duration.ofSeconds(10)).until(() -> !waits.readsEventsTopic());
        CountedState state = new CountedState();
        DeferredResult<String> result = new DeferredResult<>();
        assertThat(hold("default", "instance-a", Duration.ofSeconds(60), state, result)).isTrue();
        state.setAfterFirstRead("completed");

        changed("instance-a");
        Thread.sleep(500);
        assertThat(result.hasResult()).as("woken by a topic it does not read").isFalse();

        everyChangeToldHere.set(false);
        await().atMost(Duration.ofSeconds(10)).until(result::hasResult);
        assertThat(result.getResult()).isEqualTo("completed");
    }

    @Test
    void shouldNotReadAgainForAChangeOfOneOfTheInstancesSteps() throws Exception {
        start(10, 10);
        CountedState state = new CountedState();
        DeferredResult<String> result = new DeferredResult<>();
        hold("default", "instance-a", Duration.ofSeconds(60), state, result);
        state.setAfterFirstRead("completed");

        producer.send(new ProducerRecord<>(topic, "instance-a", """
                {"specversion":"1.0","id":"e1","source":"/workspaces/default/processes/p","type":"sop.step.state_changed",\
                "data":{"step_id":"a","from":"active","to":"completed"}}""".getBytes(java.nio.charset.StandardCharsets.UTF_8))).get();
        Thread.sleep(1_000);
        assertThat(result.hasResult()).as("woken by a step's change").isFalse();

        producer.send(new ProducerRecord<>(topic, "instance-a", """
                {"specversion":"1.0","id":"e2","source":"/workspaces/default/processes/p","data":{"from":"running","to":"completed"},\
                "type":"sop.instance.state_changed"}""".getBytes(java.nio.charset.StandardCharsets.UTF_8))).get();
        await().atMost(Duration.ofSeconds(10)).until(result::hasResult);
        assertThat(result.getResult()).isEqualTo("completed");
        assertThat(state.reads.get()).isEqualTo(2);
    }

    @Test
    void shouldKeepWaitingWhenARecordComesButTheInstanceStillRuns() throws Exception {
        start(10, 10);
        CountedState state = new CountedState();
        DeferredResult<String> result = new DeferredResult<>();
        hold("default", "instance-a", Duration.ofSeconds(60), state, result);

        state.setAfterFirstRead("running");
        changed("instance-a");
        await().atMost(Duration.ofSeconds(10)).until(() -> state.reads.get() >= 2);
        assertThat(result.hasResult()).isFalse();

        state.state.set("waiting");
        changed("instance-a");
        await().atMost(Duration.ofSeconds(10)).until(result::hasResult);
        assertThat(result.getResult()).isEqualTo("waiting");
    }

    @Test
    void shouldAnswerTheInstanceAsItIsOnceTheWaitRunsOut() throws Exception {
        start(10, 10);
        DeferredResult<String> result = new DeferredResult<>();
        long askedAt = System.nanoTime();

        hold("default", "instance-a", Duration.ofSeconds(1), () -> "running", result);

        await().atMost(Duration.ofSeconds(10)).until(result::hasResult);
        assertThat(result.getResult()).isEqualTo("running");
        assertThat(Duration.ofNanos(System.nanoTime() - askedAt)).isGreaterThanOrEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void shouldAnswerTheErrorOfAReadThatFails() throws Exception {
        start(10, 10);
        DeferredResult<String> result = new DeferredResult<>();
        CountedState state = new CountedState();

        hold("default", "instance-a", Duration.ofSeconds(60), () -> {
            if (state.get().equals("gone")) {
                throw new StateUnavailableException("moving");
            }
            return "running";
        }, result);
        state.setAfterFirstRead("gone");
        changed("instance-a");

        await().atMost(Duration.ofSeconds(10)).until(result::hasResult);
        assertThat(result.getResult()).isInstanceOf(StateUnavailableException.class);
        assertThat(waits.waiting()).isZero();
    }

    @Test
    void shouldHoldNoMoreThanItsBoundsPerWorkspaceAndInAll() throws Exception {
        start(2, 3);
        Supplier<String> running = () -> "running";

        assertThat(hold("a", "a-1", Duration.ofSeconds(60), running, new DeferredResult<>())).isTrue();
        assertThat(hold("a", "a-2", Duration.ofSeconds(60), running, new DeferredResult<>())).isTrue();
        assertThat(hold("a", "a-3", Duration.ofSeconds(60), running, new DeferredResult<>())).as("past workspace a's bound").isFalse();
        assertThat(hold("b", "b-1", Duration.ofSeconds(60), running, new DeferredResult<>())).as("another workspace").isTrue();
        assertThat(hold("b", "b-2", Duration.ofSeconds(60), running, new DeferredResult<>())).as("past the bound in all").isFalse();
        assertThat(waits.waiting()).isEqualTo(3);

    }

    @Test
    void shouldFreeASlotOnceItsWaiterIsAnswered() throws Exception {
        start(1, 1);
        CountedState state = new CountedState();
        DeferredResult<String> settling = new DeferredResult<>();
        assertThat(hold("a", "a-1", Duration.ofSeconds(60), state, settling)).isTrue();
        assertThat(hold("a", "a-2", Duration.ofSeconds(60), () -> "running", new DeferredResult<>())).isFalse();

        state.setAfterFirstRead("completed");
        changed("a-1");
        await().atMost(Duration.ofSeconds(10)).until(settling::hasResult);

        assertThat(hold("a", "a-2", Duration.ofSeconds(60), () -> "running", new DeferredResult<>())).isTrue();
    }

    @Test
    void shouldAnswerEveryWaiterWithItsInstanceWhenTheGatewayBeginsToStop() throws Exception {
        start(10, 10);
        CountedState state = new CountedState();
        DeferredResult<String> result = new DeferredResult<>();
        hold("default", "instance-a", Duration.ofSeconds(60), state, result);
        state.setAfterFirstRead("running");

        waits.answerAllOnShutdown();

        await().atMost(Duration.ofSeconds(10)).until(result::hasResult);
        assertThat(result.getResult()).isEqualTo("running");
        assertThat(waits.waiting()).isZero();
    }

    @Test
    void shouldAnswerEveryWaiterWhenItStops() throws Exception {
        start(10, 10);
        DeferredResult<String> result = new DeferredResult<>();
        hold("default", "instance-a", Duration.ofSeconds(60), () -> "running", result);

        waits.stop();
        waits = null;

        assertThat(result.hasResult()).isTrue();
        assertThat(result.getResult()).isInstanceOf(StateUnavailableException.class);
    }
}
