package dev.sopline.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import dev.sopline.schemas.topic.Topics;
import dev.sopline.testing.CapturedLog;
import dev.sopline.testing.SharedKafka;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;

/**
 * A worker with a static member id, restarted after a crash, runs the steps of its partitions at once instead of after
 * its dead self's session (45 s); stopped cleanly it still leaves its group; a second worker under an id in use fences
 * the first, which stops and says why.
 */
class StaticMemberIT {

    private final Platform platform = Platform.get();

    @Test
    void shouldRunItsStepsAtOnceWhenRestartedAfterACrashAndLeaveItsGroupWhenStopped() throws Exception {
        platform.register(Platform.oneStepProcess("mend-flow", "mend.work"));
        String group = "mend-workers";
        crashedMember(group, "mend-1", Topics.automatedSteps("mend"));

        SopWorker restarted = SopWorker.builder().kafka(SharedKafka.bootstrapServers()).group(group).readPreviousTopic(false)
                .staticMember("mend-1").handle("mend.work", step -> Map.of("result", "mended")).start();
        try {
            String id = platform.start("mend-flow", Map.of("n", 1));
            // Kafka's default session is 45 s: a new member would get no partition before the dead one's ends.
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() ->
                    assertThat(platform.instance("mend-flow", id).path("state").asString()).isEqualTo("completed"));
            assertThat(members(group)).extracting(member -> member.groupInstanceId().orElse(null)).containsExactly("mend-1");
        } finally {
            restarted.close();
        }
        await("a static member stopped cleanly leaves at once").atMost(Duration.ofSeconds(5))
                .untilAsserted(() -> assertThat(members(group)).isEmpty());
    }

    @Test
    void shouldStopAndSayWhyWhenAnotherWorkerJoinsUnderItsId() throws Exception {
        platform.register(Platform.oneStepProcess("twin-flow", "twin.work"));
        SopWorker second = null;
        try (CapturedLog log = CapturedLog.of(KafkaStepWorker.class);
             SopWorker first = worker("twin-workers", "twin-1", "twin.work")) {
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(members("twin-workers")).hasSize(1));
            second = worker("twin-workers", "twin-1", "twin.work");

            await("the first worker, fenced").atMost(Duration.ofSeconds(30)).until(() -> !first.isRunning());
            assertThat(log.messagesAtLeast(Level.ERROR)).anySatisfy(message ->
                    assertThat(message).contains("same static member id").contains("Give each running worker an id of its own"));
            String id = platform.start("twin-flow", Map.of("n", 2));
            await("the second worker runs the steps").atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                    assertThat(platform.instance("twin-flow", id).path("state").asString()).isEqualTo("completed"));
        } finally {
            if (second != null) {
                second.close();
            }
        }
    }

    private static SopWorker worker(String group, String memberId, String run) {
        return SopWorker.builder().kafka(SharedKafka.bootstrapServers()).group(group).readPreviousTopic(false)
                .staticMember(memberId).handle(run, step -> Map.of("result", "done")).start();
    }

    /**
     * What a worker killed with SIGKILL leaves behind: a member of the group under its id, holding the team's topic,
     * that never heartbeats again and never left.
     */
    private static void crashedMember(String group, String memberId, String topic) throws Exception {
        try (KafkaConsumer<String, String> dead = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedKafka.bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG, group,
                ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, memberId,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false), new StringDeserializer(), new StringDeserializer())) {
            dead.subscribe(List.of(topic));
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                dead.poll(Duration.ofMillis(100));
                return !dead.assignment().isEmpty();
            });
            dead.close(CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.REMAIN_IN_GROUP));
        }
        assertThat(members(group)).as("the dead member, still in its group").hasSize(1);
    }

    private static List<MemberDescription> members(String group) throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", SharedKafka.bootstrapServers()))) {
            ConsumerGroupDescription description = admin.describeConsumerGroups(List.of(group)).all().get().get(group);
            return List.copyOf(description.members());
        }
    }
}
