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
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** Once its steps are done, a worker group has committed its topic to the end: a restarted worker runs none again. */
class CommittedOffsetsIT {

    private final Platform platform = Platform.get();

    @Test
    void shouldCommitEveryDoneStepSoThatARestartedWorkerRunsNoneAgain() throws Exception {
        platform.register(Platform.oneStepProcess("offsets-flow", "offsets.work"));
        AtomicInteger calls = new AtomicInteger();
        StepHandler counting = step -> {
            calls.incrementAndGet();
            return Map.of("result", "done");
        };
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

        try (SopWorker restarted = SopWorker.builder().kafka(SharedKafka.bootstrapServers()).group("offsets-workers")
                .handle("offsets.work", counting).start()) {
            assertThat(restarted.awaitConnected(Duration.ofSeconds(30))).isTrue();
            String probe = platform.start("offsets-flow", Map.of("n", 99));
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                    assertThat(platform.instance("offsets-flow", probe).path("state").asString()).isEqualTo("completed"));
        }
        assertThat(calls.get()).as("handler calls: the ten done steps are not run again, only the new one").isEqualTo(11);
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
