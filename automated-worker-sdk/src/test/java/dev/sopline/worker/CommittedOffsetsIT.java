package dev.sopline.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sopline.schemas.topic.Topics;
import dev.sopline.testing.SharedKafka;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/** Once its steps are done, a worker group has committed its topic to the end: a restarted worker runs none again. */
class CommittedOffsetsIT {

    private final Platform platform = Platform.get();

    @Test
    void shouldCommitEveryDoneStepSoThatARestartedWorkerRunsNoneAgain() throws Exception {
        platform.register(Platform.oneStepProcess("offsets-flow", "offsets.work"));
        AtomicInteger calls = new AtomicInteger();
        StepHandler counting = counting(calls);
        List<String> ids = new ArrayList<>();
        try (SopWorker worker = SopWorker.builder().kafka(SharedKafka.bootstrapServers()).group("offsets-workers").concurrency(3)
                .handle("offsets.work", counting).start()) {
            for (int n = 0; n < 10; n++) {
                ids.add(platform.start("offsets-flow", Map.of("n", n)));
            }
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                for (String id : ids) {
                    assertThat(platform.instance("offsets-flow", id).path("state").asString()).isEqualTo("completed");
                }
            });
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, SharedKafka.bootstrapServers()))) {
                await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(uncommitted(admin)).isZero());
            }
        }
        assertThat(calls.get()).isEqualTo(10);

        completeOneMoreInANewMember("offsets-workers", "offsets.work", "offsets-flow", counting);
        assertThat(calls.get()).as("handler calls: the ten done steps are not run again, only the new one").isEqualTo(11);
    }

    @Test
    void shouldCommitAStepWhoseResultWentOutAsTheWorkerWasStopped() throws Exception {
        platform.register(Platform.oneStepProcess("stopped-offsets-flow", "stoppedoffsets.work"));
        AtomicInteger calls = new AtomicInteger();
        StepHandler counting = counting(calls);
        AtomicReference<KafkaStepWorker> toStop = new AtomicReference<>();
        KafkaStepWorker stopping = new KafkaStepWorker(SharedKafka.bootstrapServers(), "stopped-offsets-workers",
                StepTopics.forHandlers(Set.of("stoppedoffsets.work"), false), ready -> true, null, 2, "stopping-worker", null,
                new StoppingProducer(toStop)).withHandlers(Map.of("stoppedoffsets.work", counting));
        toStop.set(stopping);
        Thread thread = new Thread(stopping, "stopping-worker");
        thread.start();
        String id = platform.start("stopped-offsets-flow", Map.of("n", 1));
        await().atMost(Duration.ofSeconds(30)).until(() -> !thread.isAlive());
        awaitCompleted("stopped-offsets-flow", id);

        completeOneMoreInANewMember("stopped-offsets-workers", "stoppedoffsets.work", "stopped-offsets-flow", counting);
        assertThat(calls.get()).as("handler calls: the step reported as the worker stopped is not run again").isEqualTo(2);
    }

    /**
     * The real producer, telling the worker to stop at once as soon as the broker has taken a result: the step's
     * result is out, and the worker's stop comes before its poll thread has settled the step.
     */
    private static final class StoppingProducer extends KafkaProducer<String, byte[]> {
        private final AtomicReference<KafkaStepWorker> worker;

        StoppingProducer(AtomicReference<KafkaStepWorker> worker) {
            super(Map.of("bootstrap.servers", SharedKafka.bootstrapServers(), "acks", "all"), new StringSerializer(), new ByteArraySerializer());
            this.worker = worker;
        }

        @Override
        public Future<RecordMetadata> send(ProducerRecord<String, byte[]> record, Callback callback) {
            Future<RecordMetadata> sent = super.send(record, callback);
            return CompletableFuture.supplyAsync(() -> {
                try {
                    RecordMetadata metadata = sent.get();
                    worker.get().stop(Duration.ZERO);
                    return metadata;
                } catch (InterruptedException | ExecutionException e) {
                    throw new IllegalStateException(e);
                }
            });
        }
    }

    private static StepHandler counting(AtomicInteger calls) {
        return step -> {
            calls.incrementAndGet();
            return Map.of("result", "done");
        };
    }

    /** A worker that joins the group afterwards and runs one new step: any step before it that it runs again counts too. */
    private void completeOneMoreInANewMember(String group, String run, String process, StepHandler handler) throws InterruptedException {
        try (SopWorker next = SopWorker.builder().kafka(SharedKafka.bootstrapServers()).group(group).handle(run, handler).start()) {
            assertThat(next.awaitConnected(Duration.ofSeconds(30))).isTrue();
            awaitCompleted(process, platform.start(process, Map.of("n", 99)));
        }
    }

    private void awaitCompleted(String process, String id) {
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(platform.instance(process, id).path("state").asString()).isEqualTo("completed"));
    }

    /** Records of the team's topic past the group's committed offsets, transaction markers aside. */
    private static long uncommitted(Admin admin) throws Exception {
        String topic = Topics.automatedSteps("offsets");
        Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets("offsets-workers")
                .partitionsToOffsetAndMetadata().get(10, TimeUnit.SECONDS);
        Set<TopicPartition> partitions = admin.describeTopics(List.of(topic)).allTopicNames().get(10, TimeUnit.SECONDS).get(topic)
                .partitions().stream().map(info -> new TopicPartition(topic, info.partition())).collect(Collectors.toSet());
        Map<TopicPartition, OffsetSpec> latest = partitions.stream().collect(Collectors.toMap(partition -> partition, partition -> OffsetSpec.latest()));
        long behind = 0;
        for (var end : admin.listOffsets(latest).all().get(10, TimeUnit.SECONDS).entrySet()) {
            OffsetAndMetadata offset = committed.get(end.getKey());
            long position = offset == null ? 0 : offset.offset();
            // The engine writes steps in transactions: the commit marker after the last step takes one offset.
            behind += Math.max(0, end.getValue().offset() - position - 1);
        }
        return behind;
    }
}
