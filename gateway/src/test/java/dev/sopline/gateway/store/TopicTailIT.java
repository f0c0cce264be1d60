package dev.sopline.gateway.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.github.f4b6a3.ulid.UlidCreator;
import dev.sopline.testing.SharedKafka;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * A record its handler cannot take is skipped: the tail goes on with the next one and stays healthy. A tail that idles
 * while its records are told in the JVM anyway hands on, once it stops idling, what others wrote meanwhile.
 */
class TopicTailIT {

    private static String newTopic(String prefix) throws Exception {
        String topic = prefix + UlidCreator.getMonotonicUlid();
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", SharedKafka.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();
        }
        return topic;
    }

    private static KafkaProducer<String, byte[]> producer() {
        return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedKafka.bootstrapServers()),
                new StringSerializer(), new ByteArraySerializer());
    }

    @Test
    void shouldFetchNothingWhileToldHereAndThenHandOnWhatWasWrittenMeanwhileWithinTheLookBack() throws Exception {
        String topic = newTopic("tail-idle-");
        AtomicBoolean toldHere = new AtomicBoolean();
        List<String> handled = new CopyOnWriteArrayList<>();
        CountDownLatch handling = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        TopicTail tail = new TopicTail().idleWhile(toldHere::get, Duration.ofMinutes(5));
        tail.start(SharedKafka.bootstrapServers(), topic, TopicTail.Visibility.AS_WRITTEN, record -> {
            if (record.key().equals("followed")) {
                handling.countDown();
                awaitUninterruptibly(release);
            }
            handled.add(record.key());
        });
        // All but one record carry a time older than the look-back: going back stops at the one that does not.
        long longAgo = System.currentTimeMillis() - Duration.ofMinutes(10).toMillis();
        try (KafkaProducer<String, byte[]> producer = producer()) {
            producer.send(new ProducerRecord<>(topic, 0, longAgo, "followed", new byte[] {1})).get();
            assertThat(handling.await(10, TimeUnit.SECONDS)).isTrue();

            // Written while the tail is behind, before it learns it may idle: it catches up before it idles.
            producer.send(new ProducerRecord<>(topic, 0, longAgo, "just-before", new byte[] {1})).get();
            toldHere.set(true);
            release.countDown();
            await().atMost(Duration.ofSeconds(10)).until(() -> !tail.isFetching());
            assertThat(handled).contains("just-before");

            producer.send(new ProducerRecord<>(topic, 0, longAgo, "older-than-the-look-back", new byte[] {1})).get();
            producer.send(new ProducerRecord<>(topic, 0, System.currentTimeMillis(), "while-idle", new byte[] {1})).get();
            Thread.sleep(500);
            assertThat(handled).as("handed on while idle").doesNotContain("while-idle");
            assertThat(tail.isHealthy()).as("idling is healthy").isTrue();

            toldHere.set(false);
            await().atMost(Duration.ofSeconds(10)).until(() -> handled.contains("while-idle"));
            assertThat(tail.isFetching()).isTrue();
            assertThat(handled).as("each once, and nothing older than the look-back")
                    .containsExactly("followed", "just-before", "while-idle");
        } finally {
            tail.stop();
        }
    }

    @Test
    void shouldResumeFromTheLookBackWhenItsLoopFailsWhileIdle() throws Exception {
        String topic = newTopic("tail-idle-failing-");
        AtomicBoolean failOnce = new AtomicBoolean();
        BooleanSupplier toldHere = () -> {
            if (failOnce.compareAndSet(true, false)) {
                throw new IllegalStateException("the loop fails while idle");
            }
            return true;
        };
        List<String> handled = new CopyOnWriteArrayList<>();
        TopicTail tail = new TopicTail().idleWhile(toldHere, Duration.ofMinutes(5));
        long longAgo = System.currentTimeMillis() - Duration.ofMinutes(10).toMillis();
        try (KafkaProducer<String, byte[]> producer = producer()) {
            producer.send(new ProducerRecord<>(topic, 0, longAgo, "before", new byte[] {1})).get();
            tail.start(SharedKafka.bootstrapServers(), topic, TopicTail.Visibility.AS_WRITTEN, record -> handled.add(record.key()));
            await().atMost(Duration.ofSeconds(10)).until(() -> !tail.isFetching());

            producer.send(new ProducerRecord<>(topic, 0, longAgo, "older-than-the-look-back", new byte[] {1})).get();
            producer.send(new ProducerRecord<>(topic, 0, System.currentTimeMillis(), "while-idle", new byte[] {1})).get();
            failOnce.set(true);

            // A new consumer goes back a look-back's time, hands on what it finds there, and idles again.
            await().atMost(Duration.ofSeconds(15)).until(() -> handled.contains("while-idle"));
            assertThat(failOnce).as("the loop failed").isFalse();
            await().atMost(Duration.ofSeconds(10)).until(() -> !tail.isFetching());
            assertThat(tail.isHealthy()).isTrue();
            assertThat(handled).as("nothing older than the look-back, nothing from before the tail began")
                    .containsExactly("while-idle");
        } finally {
            tail.stop();
        }
    }

    private static void awaitUninterruptibly(CountDownLatch latch) {
        try {
            latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void shouldSkipARecordItsHandlerFailsOnAndHandleTheNext() throws Exception {
        String topic = newTopic("tail-failing-handler-");
        List<String> handled = new CopyOnWriteArrayList<>();
        TopicTail tail = new TopicTail();
        tail.start(SharedKafka.bootstrapServers(), topic, TopicTail.Visibility.COMMITTED, record -> {
            if (record.key().equals("poison")) {
                throw new IllegalStateException("cannot handle " + record.key());
            }
            handled.add(record.key());
        });
        try (KafkaProducer<String, byte[]> producer = producer()) {
            for (String key : List.of("first", "poison", "after")) {
                producer.send(new ProducerRecord<>(topic, key, new byte[] {1})).get();
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> handled.contains("after"));
            assertThat(handled).containsExactly("first", "after");
            assertThat(tail.isHealthy()).isTrue();
        } finally {
            tail.stop();
        }
        assertThat(tail.isHealthy()).isFalse();
    }
}
