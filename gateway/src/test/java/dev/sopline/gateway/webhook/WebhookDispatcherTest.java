package dev.sopline.gateway.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sopline.gateway.config.SopProperties;
import dev.sopline.gateway.webhook.DeliveryAttempt.Outcome;
import dev.sopline.schemas.event.StateChangeEvents;
import dev.sopline.schemas.topic.Topics;
import io.cloudevents.core.builder.CloudEventBuilder;
import io.cloudevents.jackson.JsonFormat;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The dispatcher's loop over a {@link MockConsumer}: what it does when reading fails, and when it commits. */
class WebhookDispatcherTest {

    private static final TopicPartition PARTITION = new TopicPartition(Topics.EVENTS, 0);
    private static final WebhookSubscription SUBSCRIPTION = new WebhookSubscription("whk_1", "default", "https://hooks.example.com/hook",
            List.of("state_changed"), "a-receiver-secret-of-some-length", Instant.EPOCH);

    private final Queue<String> attempted = new ConcurrentLinkedQueue<>();
    private WebhookDispatcher dispatcher;

    @AfterEach
    void stopDispatcher() {
        if (dispatcher != null && dispatcher.isRunning()) {
            dispatcher.stop();
        }
    }

    @Test
    void shouldJoinAsTheSameStaticMemberWhenRestartedOnItsDataDirectory(@TempDir Path dataDirs) {
        // A gateway restarted after a crash takes its partitions of sop.events back at once instead of after its dead
        // self's session; another gateway, with a data directory of its own, is another member.
        Object first = memberId(properties(dataDirs.resolve("gateway-1"), null));

        assertThat(first).asString().startsWith("sop-webhooks-");
        assertThat(memberId(properties(dataDirs.resolve("gateway-1"), null))).as("the same gateway, restarted").isEqualTo(first);
        assertThat(memberId(properties(dataDirs.resolve("gateway-2"), null))).as("another gateway").isNotEqualTo(first);
    }

    @Test
    void shouldJoinAsANewMemberWhereNoEngineRunsBesideIt(@TempDir Path dataDir) {
        // Gateways that read through query URLs may share a data directory: one id kept there would have them fence each other.
        SopProperties properties = properties(dataDir, new SopProperties.Engine(null, "http://engine-1:7070,http://engine-2:7070", null));

        assertThat(memberId(properties)).isNull();
        assertThat(dataDir.resolve(WebhookDispatcher.MEMBER_ID_FILE)).doesNotExist();
    }

    private static Object memberId(SopProperties properties) {
        return WebhookDispatcher.consumerConfig(properties).get(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);
    }

    private static SopProperties properties(Path dataDir, SopProperties.Engine engine) {
        return new SopProperties(new SopProperties.Kafka("localhost:9092"), engine, dataDir, null, null,
                new SopProperties.RateLimit(50, 100), Duration.ofSeconds(10), null, null);
    }

    @Test
    void shouldReadAgainWithANewConsumerAfterReadingFailed() {
        // given a consumer that fails, and the one made after it, holding an event
        MockConsumer<String, byte[]> failing = assignedConsumer();
        failing.setPollException(new KafkaException("the broker went away"));
        MockConsumer<String, byte[]> next = assignedConsumer();
        next.schedulePollTask(() -> next.addRecord(event(0, "evt-1")));
        dispatcher = new WebhookDispatcher(subscribed(), delivering(), madeInTurn(failing, next));
        assertThat(dispatcher.isHealthy()).as("not reading before it starts").isFalse();

        // when
        dispatcher.start();

        // then
        await().atMost(Duration.ofSeconds(10)).until(() -> attempted.contains("evt-1:whk_1"));
        assertThat(failing.closed()).isTrue();
        assertThat(dispatcher.isHealthy()).isTrue();
        dispatcher.stop();
        assertThat(dispatcher.isHealthy()).as("not reading after it stops").isFalse();
    }

    @Test
    void shouldCommitAnOffsetOnlyOnceItsDeliveryFinished() {
        // given a delivery that is still out
        MockConsumer<String, byte[]> consumer = assignedConsumer();
        consumer.schedulePollTask(() -> consumer.addRecord(event(0, "evt-1")));
        CountDownLatch answered = new CountDownLatch(1);
        dispatcher = new WebhookDispatcher(subscribed(), (subscription, delivery, attempt) -> {
            attempted.add(delivery.id());
            waitFor(answered);
            return Outcome.DELIVERED;
        }, madeInTurn(consumer));
        dispatcher.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> attempted.contains("evt-1:whk_1"));

        // then the partition is not committed past it while it is out: a restart would read it again
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2))
                .until(() -> committed(consumer) == null || committed(consumer).offset() == 0);

        // and is once it finished
        answered.countDown();
        await().atMost(Duration.ofSeconds(10)).until(() -> committed(consumer) != null && committed(consumer).offset() == 1);
    }

    /** A consumer that is assigned the partition at its first poll and reads it from its beginning. */
    private static MockConsumer<String, byte[]> assignedConsumer() {
        MockConsumer<String, byte[]> consumer = new MockConsumer<>("earliest");
        consumer.updateBeginningOffsets(Map.of(PARTITION, 0L));
        consumer.schedulePollTask(() -> consumer.rebalance(List.of(PARTITION)));
        return consumer;
    }

    @SafeVarargs
    private static java.util.function.Supplier<Consumer<String, byte[]>> madeInTurn(MockConsumer<String, byte[]>... consumers) {
        Iterator<MockConsumer<String, byte[]>> inTurn = List.of(consumers).iterator();
        return () -> {
            if (!inTurn.hasNext()) {
                throw new KafkaException("no more consumers in this test");
            }
            return inTurn.next();
        };
    }

    private static ConsumerRecord<String, byte[]> event(long offset, String id) {
        byte[] body = new JsonFormat().serialize(CloudEventBuilder.v1().withId(id).withType(StateChangeEvents.INSTANCE_STATE_CHANGED)
                .withSource(StateChangeEvents.source("default", "review")).withSubject("01J").build());
        return new ConsumerRecord<>(PARTITION.topic(), PARTITION.partition(), offset, "01J", body);
    }

    private static OffsetAndMetadata committed(MockConsumer<String, byte[]> consumer) {
        return consumer.committed(Set.of(PARTITION)).get(PARTITION);
    }

    private static Subscriptions subscribed() {
        return new Subscriptions() {
            @Override
            public boolean isEmpty() {
                return false;
            }

            @Override
            public List<WebhookSubscription> of(String workspace) {
                return workspace.equals(SUBSCRIPTION.workspace()) ? List.of(SUBSCRIPTION) : List.of();
            }

            @Override
            public Optional<WebhookSubscription> byId(String id) {
                return Optional.of(SUBSCRIPTION).filter(subscription -> subscription.id().equals(id));
            }
        };
    }

    private DeliveryAttempt delivering() {
        return (subscription, delivery, attempt) -> {
            attempted.add(delivery.id());
            return Outcome.DELIVERED;
        };
    }

    private static void waitFor(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
