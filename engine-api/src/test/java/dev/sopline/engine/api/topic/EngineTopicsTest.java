package dev.sopline.engine.api.topic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sopline.schemas.definition.StepType;
import dev.sopline.schemas.topic.Topics;
import java.lang.reflect.Proxy;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeTopicsResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.internals.KafkaFutureImpl;
import org.junit.jupiter.api.Test;

class EngineTopicsTest {

    @Test
    void shouldGiveTheEnginesOwnTopicsOneCountAndThePublicTopicsTheirOwn() {
        Map<String, Integer> partitions = EngineTopics.all(1, 6, (short) 1).stream()
                .collect(Collectors.toMap(NewTopic::name, NewTopic::numPartitions));

        assertThat(partitions).containsEntry(EngineTopics.COMMANDS, 1).containsEntry(EngineTopics.REPLIES, 1)
                .containsEntry(EngineTopics.CALLBACKS, 1);
        assertThat(partitions).containsEntry(Topics.STEP_RESULTS, 6).containsEntry(Topics.EVENTS, 6)
                .containsEntry(Topics.automatedSteps(Topics.DEFAULT_NAMESPACE), 6);
        for (StepType type : StepType.values()) {
            assertThat(partitions).containsEntry(Topics.stepReady(type), 6);
        }
        // Compacted topics read whole by every replica: one partition whatever the counts.
        assertThat(partitions).containsEntry(EngineTopics.DEFINITIONS, 1).containsEntry(EngineTopics.TOKENS, 1)
                .containsEntry(EngineTopics.WEBHOOKS, 1).containsEntry(EngineTopics.ENGINE_SECRET, 1);
    }

    @Test
    void shouldHaveTheBrokerStampTheCommandLogsRecords() {
        NewTopic commands = EngineTopics.all(1, 6, (short) 1).stream().filter(topic -> topic.name().equals(EngineTopics.COMMANDS))
                .findFirst().orElseThrow();

        assertThat(commands.configs()).containsEntry(TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG, "LogAppendTime");
    }

    @Test
    void shouldAskAgainWhileTheBrokerDoesNotKnowATopicJustCreated() {
        AtomicInteger asked = new AtomicInteger();
        Admin admin = answering(asked, failed(new UnknownTopicOrPartitionException("not yet")),
                failed(new UnknownTopicOrPartitionException("not yet")), described(EngineTopics.COMMANDS, 6));

        assertThat(EngineTopics.partitions(admin, EngineTopics.COMMANDS)).isEqualTo(6);
        assertThat(asked).hasValue(3);
    }

    @Test
    void shouldNotAskAgainOnAnyOtherError() {
        AtomicInteger asked = new AtomicInteger();
        Admin admin = answering(asked, failed(new TopicAuthorizationException("denied")), described(EngineTopics.COMMANDS, 6));

        assertThatThrownBy(() -> EngineTopics.partitions(admin, EngineTopics.COMMANDS))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("denied");
        assertThat(asked).hasValue(1);
    }

    /** An admin client whose topic descriptions are {@code answers}, one per call, counted in {@code asked}. */
    private static Admin answering(AtomicInteger asked, KafkaFuture<TopicDescription>... answers) {
        Deque<KafkaFuture<TopicDescription>> next = new ArrayDeque<>(List.of(answers));
        return (Admin) Proxy.newProxyInstance(Admin.class.getClassLoader(), new Class<?>[] {Admin.class}, (proxy, method, args) -> {
            if (!method.getName().equals("describeTopics")) {
                throw new UnsupportedOperationException(method.getName());
            }
            asked.incrementAndGet();
            return new DescribeTopicsResult(null, Map.of(EngineTopics.COMMANDS, next.removeFirst())) { };
        });
    }

    private static KafkaFuture<TopicDescription> failed(RuntimeException error) {
        KafkaFutureImpl<TopicDescription> future = new KafkaFutureImpl<>();
        future.completeExceptionally(error);
        return future;
    }

    private static KafkaFuture<TopicDescription> described(String topic, int partitions) {
        Node broker = new Node(1, "localhost", 9092);
        return KafkaFuture.completedFuture(new TopicDescription(topic, false, IntStream.range(0, partitions)
                .mapToObj(partition -> new TopicPartitionInfo(partition, broker, List.of(broker), List.of(broker))).toList()));
    }
}
