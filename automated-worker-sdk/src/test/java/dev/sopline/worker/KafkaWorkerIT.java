package dev.sopline.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sopline.testing.SharedKafka;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.common.GroupState;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class KafkaWorkerIT {

    private final Platform platform = Platform.get();

    @Test
    void shouldShareStepsAmongThreeWorkersWithNoneDoneTwice() {
        platform.register(Platform.oneStepProcess("shared-batch", "it.share"));
        Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
        Map<String, Set<String>> byWorker = new ConcurrentHashMap<>();
        List<SopWorker> workers = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            String name = "w" + i;
            workers.add(SopWorker.builder().kafka(SharedKafka.bootstrapServers()).group("share-group").workerId(name)
                    .handle("it.share", step -> {
                        calls.computeIfAbsent(step.instanceId(), ignored -> new AtomicInteger()).incrementAndGet();
                        byWorker.computeIfAbsent(name, ignored -> ConcurrentHashMap.newKeySet()).add(step.instanceId());
                        return Map.of("result", "done by " + name);
                    })
                    .start());
        }
        try {
            awaitStableGroup("share-group", 3);
            List<String> ids = startAndAwaitCompleted("shared-batch", 30);

            assertThat(calls.keySet()).containsExactlyInAnyOrderElementsOf(ids);
            assertThat(calls.values()).allSatisfy(count -> assertThat(count.get()).isEqualTo(1));
            assertThat(byWorker.keySet()).as("more than one worker did work").hasSizeGreaterThan(1);
        } finally {
            workers.forEach(SopWorker::close);
        }
    }

    @Test
    void shouldCompleteTheInstancesOfAWorkerThatPublishesToTheStepResultsTopicThroughTheEnginesRelay() {
        platform.register(Platform.oneStepProcess("through-relay", "relay.work"));
        SopWorker worker = SopWorker.builder().kafka(SharedKafka.bootstrapServers()).group("relay-group").workerId("relayed")
                .resultsToCommandTopic(false)
                .handle("relay.work", step -> Map.of("result", "relayed " + step.inputs().get("n")))
                .start();
        try {
            List<String> ids = startAndAwaitCompleted("through-relay", 5);

            assertThat(platform.instance("through-relay", ids.get(3)).path("steps").get(0).path("outputs").path("result").asString())
                    .isEqualTo("relayed 3");
        } finally {
            worker.close();
        }
    }

    @Test
    void shouldSkipStepReadyRecordsItCannotUseAndRunTheStepsAfterThem() throws Exception {
        platform.register(Platform.oneStepProcess("after-bad-records", "skipbad.work"));
        String topic = dev.sopline.schemas.topic.Topics.automatedStepsFor("skipbad.work");
        platform.start("after-bad-records", Map.of("n", 0)); // makes sure the team's topic exists before writing to it
        try (org.apache.kafka.clients.producer.KafkaProducer<String, byte[]> producer = new org.apache.kafka.clients.producer.KafkaProducer<>(
                Map.of("bootstrap.servers", SharedKafka.bootstrapServers()),
                new org.apache.kafka.common.serialization.StringSerializer(), new org.apache.kafka.common.serialization.ByteArraySerializer())) {
            for (String bad : List.of("null", "{\"workspace\":\"default\",\"instance_id\":\"01ZZZZZZZZZZZZZZZZZZZZZZZZ\",\"step_id\":\"work\",\"attempt\":1}",
                    "{\"attempt\":1}", "not json")) {
                for (int partition = 0; partition < producer.partitionsFor(topic).size(); partition++) {
                    producer.send(new org.apache.kafka.clients.producer.ProducerRecord<>(topic, partition, "bad", bad.getBytes(java.nio.charset.StandardCharsets.UTF_8))).get();
                }
            }
        }
        SopWorker worker = SopWorker.builder().kafka(SharedKafka.bootstrapServers()).group("skip-bad-group").workerId("skipper")
                .handle("skipbad.work", step -> Map.of("result", "done"))
                .start();
        try {
            String id = platform.start("after-bad-records", Map.of("n", 1));
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() ->
                    assertThat(platform.instance("after-bad-records", id).path("state").asString()).isEqualTo("completed"));
        } finally {
            worker.close();
        }
    }

    @Test
    void shouldHandTheStepToAnotherWorkerWhenTheFirstIsClosedMidStep() throws Exception {
        platform.register(Platform.oneStepProcess("mid-step", "it.slow"));
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch never = new CountDownLatch(1);
        SopWorker first = SopWorker.builder().kafka(SharedKafka.bootstrapServers()).group("handover-group").workerId("first")
                .handle("it.slow", step -> {
                    started.countDown();
                    never.await();
                    return Map.of("result", "first");
                })
                .start();
        String id = platform.start("mid-step", Map.of("n", 1));
        assertThat(started.await(30, TimeUnit.SECONDS)).as("first worker took the step").isTrue();

        first.close(Duration.ofMillis(200));
        SopWorker second = SopWorker.builder().kafka(SharedKafka.bootstrapServers()).group("handover-group").workerId("second")
                .handle("it.slow", step -> Map.of("result", "second"))
                .start();
        try {
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() ->
                    assertThat(platform.instance("mid-step", id).path("state").asString()).isEqualTo("completed"));
            JsonNode step = platform.instance("mid-step", id).path("steps").get(0);
            assertThat(step.path("outputs").path("result").asString()).isEqualTo("second");
            assertThat(step.path("attempt").asInt()).isEqualTo(1);
        } finally {
            never.countDown();
            second.close();
        }
    }

    @Test
    void shouldReportAStepThatFinishesWhileTheWorkerIsClosing() throws Exception {
        platform.register(Platform.oneStepProcess("closing-step", "it.closing"));
        CountDownLatch started = new CountDownLatch(1);
        AtomicInteger calls = new AtomicInteger();
        SopWorker first = SopWorker.builder().kafka(SharedKafka.bootstrapServers()).group("closing-group").workerId("closing-first")
                .handle("it.closing", step -> {
                    calls.incrementAndGet();
                    started.countDown();
                    Thread.sleep(1_000);
                    return Map.of("result", "first");
                })
                .start();
        String id = platform.start("closing-step", Map.of("n", 1));
        assertThat(started.await(30, TimeUnit.SECONDS)).as("first worker took the step").isTrue();

        // Closed while its handler runs: the handler returns within the close timeout, so its result is sent.
        first.close(Duration.ofSeconds(30));
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(platform.instance("closing-step", id).path("state").asString()).isEqualTo("completed"));
        assertThat(platform.instance("closing-step", id).path("steps").get(0).path("outputs").path("result").asString())
                .isEqualTo("first");

        // And committed: the group's next member runs only the step started after it.
        try (SopWorker second = SopWorker.builder().kafka(SharedKafka.bootstrapServers()).group("closing-group").workerId("closing-second")
                .handle("it.closing", step -> {
                    calls.incrementAndGet();
                    return Map.of("result", "second");
                })
                .start()) {
            assertThat(second.awaitConnected(Duration.ofSeconds(30))).isTrue();
            String next = platform.start("closing-step", Map.of("n", 2));
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                    assertThat(platform.instance("closing-step", next).path("state").asString()).isEqualTo("completed"));
        }
        assertThat(calls.get()).as("handler calls: the step finished during the close is not run again").isEqualTo(2);
    }

    @Test
    void shouldCompleteAfterRetriesWhenHandlerFailsTwice() {
        platform.register(Platform.oneStepProcess("flaky", "it.flaky"));
        AtomicInteger attempts = new AtomicInteger();
        SopWorker worker = SopWorker.builder().kafka(SharedKafka.bootstrapServers()).group("flaky-group")
                .handle("it.flaky", step -> {
                    if (attempts.incrementAndGet() < 3) {
                        throw new IllegalStateException("downstream unavailable");
                    }
                    return Map.of("result", "attempt " + step.attempt());
                })
                .start();
        try {
            String id = platform.start("flaky", Map.of("n", 1));
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                    assertThat(platform.instance("flaky", id).path("state").asString()).isEqualTo("completed"));
            JsonNode step = platform.instance("flaky", id).path("steps").get(0);
            assertThat(step.path("attempt").asInt()).isEqualTo(3);
            assertThat(step.path("outputs").path("result").asString()).isEqualTo("attempt 3");
        } finally {
            worker.close();
        }
    }

    @Test
    void shouldFailTheInstanceWithTheHandlersCodeWhenEveryAttemptFails() {
        platform.register(Platform.oneStepProcess("hopeless", "it.hopeless"));
        SopWorker worker = SopWorker.builder().kafka(SharedKafka.bootstrapServers()).group("hopeless-group")
                .handle("it.hopeless", step -> {
                    throw new StepFailure("card_declined", "The card was declined");
                })
                .start();
        try {
            String id = platform.start("hopeless", Map.of("n", 1));
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                    assertThat(platform.instance("hopeless", id).path("state").asString()).isEqualTo("failed"));
            JsonNode instance = platform.instance("hopeless", id);
            assertThat(instance.path("error").path("code").asString()).isEqualTo("card_declined");
            assertThat(instance.path("error").path("step_id").asString()).isEqualTo("work");
            assertThat(instance.path("steps").get(0).path("attempt").asInt()).isEqualTo(3);
        } finally {
            worker.close();
        }
    }

    /** Starts {@code count} instances with inputs {@code n} = 0, 1, ... and waits until every one has completed. */
    private List<String> startAndAwaitCompleted(String process, int count) {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            ids.add(platform.start(process, Map.of("n", i)));
        }
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            for (String id : ids) {
                assertThat(platform.instance(process, id).path("state").asString()).as(id).isEqualTo("completed");
            }
        });
        return ids;
    }

    /** Until the group is stable with {@code members} members, each assigned partitions. */
    static void awaitStableGroup(String group, int members) {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", SharedKafka.bootstrapServers()))) {
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                ConsumerGroupDescription description = admin.describeConsumerGroups(List.of(group)).all().get().get(group);
                assertThat(description.groupState()).isEqualTo(GroupState.STABLE);
                assertThat(description.members()).hasSize(members);
                assertThat(description.members()).allSatisfy(member -> assertThat(member.assignment().topicPartitions()).isNotEmpty());
            });
        }
    }
}
