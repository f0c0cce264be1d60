package dev.sopline.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import dev.sopline.schemas.definition.StepType;
import dev.sopline.schemas.topic.Topics;
import dev.sopline.testing.CapturedLog;
import dev.sopline.testing.SharedKafka;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;

/**
 * Three teams' workers on one platform: each team's steps go to its own topic, each group reads that topic only, and
 * a team that is slow delays nobody else. A fourth process whose {@code run} has no namespace uses the default topic.
 */
class TeamTopicsIT {

    private static final List<String> TEAMS = List.of("ledger", "shipping", "reports");
    private static final String PREVIOUS_TOPIC = Topics.stepReady(StepType.AUTOMATED);

    private final Platform platform = Platform.get();

    @Test
    void shouldGiveEachTeamItsOwnTopicAndKeepASlowTeamFromDelayingTheOthers() throws Exception {
        for (String team : TEAMS) {
            platform.register(Platform.oneStepProcess(team + "-flow", team + ".work"));
        }
        platform.register(Platform.oneStepProcess("plain-flow", "work"));
        CountDownLatch reportsMayFinish = new CountDownLatch(1);
        List<SopWorker> workers = new ArrayList<>();
        try {
            workers.add(worker("ledger", "ledger.work", step -> Map.of("result", "booked")));
            workers.add(worker("shipping", "shipping.work", step -> Map.of("result", "shipped")));
            workers.add(worker("reports", "reports.work", step -> {
                reportsMayFinish.await();
                return Map.of("result", "reported");
            }));
            workers.add(worker("plain", "work", step -> Map.of("result", "plain")));

            String slow = platform.start("reports-flow", Map.of("n", 0));
            List<String> ledger = new ArrayList<>();
            List<String> shipping = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                ledger.add(platform.start("ledger-flow", Map.of("n", i)));
                shipping.add(platform.start("shipping-flow", Map.of("n", i)));
            }
            String plain = platform.start("plain-flow", Map.of("n", 1));

            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                ledger.forEach(id -> assertCompleted("ledger-flow", id));
                shipping.forEach(id -> assertCompleted("shipping-flow", id));
                assertCompleted("plain-flow", plain);
            });
            assertThat(platform.instance("reports-flow", slow).path("state").asString())
                    .as("the slow team's step is still running while the others finished").isEqualTo("running");
            reportsMayFinish.countDown();
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertCompleted("reports-flow", slow));

            try (Admin admin = Admin.create(Map.of("bootstrap.servers", SharedKafka.bootstrapServers()))) {
                for (String team : List.of("ledger", "shipping", "reports", "plain")) {
                    String own = Topics.automatedSteps(team.equals("plain") ? Topics.DEFAULT_NAMESPACE : team);
                    assertThat(assignedTopics(admin, team + "-workers")).as("topics assigned to %s", team)
                            .containsExactlyInAnyOrder(own, PREVIOUS_TOPIC);
                    Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(team + "-workers")
                            .partitionsToOffsetAndMetadata().get();
                    // A group commits where it reads: its own topic and the previous one, never another team's.
                    assertThat(committed.keySet()).extracting(TopicPartition::topic).as("topics %s committed on", team)
                            .contains(own).isSubsetOf(own, PREVIOUS_TOPIC);
                }
                // Each team's steps went to its own topic.
                for (Map.Entry<String, String> step : Map.of("ledger", ledger.get(0), "shipping", shipping.get(0), "reports", slow,
                        Topics.DEFAULT_NAMESPACE, plain).entrySet()) {
                    assertThat(stepReady(Topics.automatedSteps(step.getKey()), step.getValue()).key()).isEqualTo(step.getValue());
                }
            }
        } finally {
            reportsMayFinish.countDown();
            workers.forEach(SopWorker::close);
        }
    }

    @Test
    void shouldSayOnceThatItsTeamsTopicIsMissingAndRunItsStepsOnceItExists() throws Exception {
        String topic = Topics.automatedSteps("latecomer");
        List<String> warnings;
        try (CapturedLog log = CapturedLog.ofAll();
             SopWorker worker = SopWorker.builder().kafka(SharedKafka.bootstrapServers()).group("latecomer-workers")
                     .handle("latecomer.work", step -> Map.of("result", "late")).start()) {
            assertThat(worker.awaitConnected(Duration.ofSeconds(30))).isTrue();
            // Long enough for a consumer subscribed to the missing topic by name to ask for it a few times.
            await().pollDelay(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(4)).until(() -> true);

            platform.register(Platform.oneStepProcess("latecomer-flow", "latecomer.work"));
            String id = platform.start("latecomer-flow", Map.of("n", 1));
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertCompleted("latecomer-flow", id));
            // The engine runs in this JVM too; its producer's retries while the new topic's leaders settle are not the worker's.
            warnings = log.events().stream().filter(event -> !event.getThreadName().contains("sop-engine"))
                    .filter(event -> event.getLevel().isGreaterOrEqual(Level.WARN))
                    .map(ILoggingEvent::getFormattedMessage).filter(message -> message.contains(topic)).toList();
        }
        assertThat(warnings).as("warnings naming %s", topic).singleElement().asString().contains("does not exist yet");
    }

    @Test
    void shouldMovePastAStepItHasNoHandlerForAndLeaveItToTheGroupThatHandlesIt() throws Exception {
        // As in the middle of a rolling deploy that adds a handler: the members of one group do not all have it.
        String topic = Topics.automatedSteps("payments");
        platform.register(Platform.oneStepProcess("refund-flow", "payments.refund"));
        try (SopWorker charges = worker("payments", "payments.charge", step -> Map.of("result", "charged"));
             Admin admin = Admin.create(Map.of("bootstrap.servers", SharedKafka.bootstrapServers()))) {
            String id = platform.start("refund-flow", Map.of("n", 1));

            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(committedPast(admin, "payments-workers", topic, id))
                    .as("the charges group committed past the refund step on %s", topic).isTrue());
            assertThat(platform.instance("refund-flow", id).path("state").asString())
                    .as("the step no member of the group handles did not run there").isEqualTo("running");

            try (SopWorker refunds = worker("payments-refunds", "payments.refund", step -> Map.of("result", "refunded"))) {
                await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertCompleted("refund-flow", id));
            }
            assertThat(platform.instance("refund-flow", id).path("steps").get(0).path("outputs").path("result").asString()).isEqualTo("refunded");
        }
    }

    /** Whether the group has committed past the step-ready record of instance {@code id} on {@code topic}. */
    private static boolean committedPast(Admin admin, String group, String topic, String id) throws Exception {
        ConsumerRecord<String, String> step = stepReady(topic, id);
        OffsetAndMetadata committed = admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get()
                .get(new TopicPartition(topic, step.partition()));
        return committed != null && committed.offset() > step.offset();
    }

    private static ConsumerRecord<String, String> stepReady(String topic, String id) {
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of("bootstrap.servers", SharedKafka.bootstrapServers(),
                "isolation.level", "read_committed"), new StringDeserializer(), new StringDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                    .map(info -> new TopicPartition(topic, info.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                    if (id.equals(record.key())) {
                        return record;
                    }
                }
            }
            throw new AssertionError("Expected the step-ready record of " + id + " on " + topic);
        }
    }

    private SopWorker worker(String team, String run, StepHandler handler) {
        SopWorker worker = SopWorker.builder().kafka(SharedKafka.bootstrapServers()).group(team + "-workers").workerId(team)
                .handle(run, handler).start();
        awaitAssigned(team + "-workers");
        return worker;
    }

    private void assertCompleted(String process, String id) {
        assertThat(platform.instance(process, id).path("state").asString()).as("%s %s", process, id).isEqualTo("completed");
    }

    private static Set<String> assignedTopics(Admin admin, String group) throws Exception {
        ConsumerGroupDescription description = admin.describeConsumerGroups(List.of(group)).all().get().get(group);
        return description.members().stream().map(MemberDescription::assignment).flatMap(assignment -> assignment.topicPartitions().stream())
                .map(TopicPartition::topic).collect(Collectors.toSet());
    }

    private static void awaitAssigned(String group) {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", SharedKafka.bootstrapServers()))) {
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                ConsumerGroupDescription description = admin.describeConsumerGroups(List.of(group)).all().get().get(group);
                assertThat(description.groupState()).isEqualTo(GroupState.STABLE);
                assertThat(description.members()).singleElement().satisfies(member ->
                        assertThat(member.assignment().topicPartitions()).isNotEmpty());
            });
        }
    }
}
