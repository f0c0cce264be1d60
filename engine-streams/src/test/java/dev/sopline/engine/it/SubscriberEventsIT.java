package dev.sopline.engine.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import com.github.f4b6a3.ulid.UlidCreator;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.sopline.engine.runtime.Engine;
import dev.sopline.schemas.command.SubmitStep;
import dev.sopline.schemas.event.StateChangeEvents;
import dev.sopline.schemas.json.Json;
import dev.sopline.schemas.topic.Topics;
import dev.sopline.testing.SharedKafka;
import io.cloudevents.CloudEvent;
import io.cloudevents.jackson.JsonFormat;
import io.cloudevents.kafka.CloudEventDeserializer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * What a subscriber sees on the events topics, read as any CloudEvents application reads Kafka: with the CloudEvents
 * SDK's Kafka deserializer, committed records only. The engine runs with {@code SOP_EVENTS_TOPIC_PER_WORKSPACE=true}.
 */
class SubscriberEventsIT {

    private static final String PROCESS = """
            engine: "0.1"
            process:
              name: subscribed
              version: "1.0"
              steps:
                - id: approve
                  type: form
                  outputs:
                    - name: ok
                      type: boolean
            """;
    private static final SchemaRegistry SCHEMAS = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12,
            builder -> builder.schemaIdResolvers(resolvers -> resolvers.mapPrefix("https://sopline.dev/schemas/", "classpath:schemas/")));
    private static final Map<String, String> SCHEMA_OF_TYPE = Map.of(
            StateChangeEvents.INSTANCE_STATE_CHANGED, "instance-state-changed.schema.json",
            StateChangeEvents.STEP_STATE_CHANGED, "step-state-changed.schema.json");

    private static EngineClient client;
    private static Engine engine;

    @BeforeAll
    static void startEngine(@TempDir Path stateDir) throws Exception {
        client = new EngineClient(SharedKafka.bootstrapServers());
        engine = Engine.start(EngineFailoverIT.settings(stateDir).withEventsTopicPerWorkspace(true));
        await().atMost(Duration.ofSeconds(90)).until(engine::isRunning);
    }

    @AfterAll
    static void stopEngine() {
        engine.close();
        client.close();
    }

    @Test
    void shouldHandSubscribersEveryTransitionOfAnInstanceInOrderAsCloudEventsThatMatchTheSchemas() {
        // given
        String workspace = "subscribers";
        assertThat(client.register(workspace, PROCESS).status()).isEqualTo(201);
        String id = UlidCreator.getMonotonicUlid().toString();

        // when the instance runs to its end
        assertThat(client.start(workspace, id, "subscribed", Map.of()).join().status()).isEqualTo(201);
        assertThat(client.sendAndWait(new SubmitStep(EngineClient.commandId(), workspace, id, "subscribed", "approve",
                Map.of("ok", true), null)).status()).isEqualTo(200);

        // then sop.events holds each of its transitions once, in order, each a CloudEvent of the published schema
        try (EventsReader reader = new EventsReader(Topics.EVENTS)) {
            List<CloudEvent> events = new ArrayList<>();
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                reader.readMore().stream().filter(event -> id.equals(event.getSubject())).forEach(events::add);
                assertThat(events).extracting(SubscriberEventsIT::transition).contains(
                        tuple(StateChangeEvents.INSTANCE_STATE_CHANGED, "waiting", "completed"));
            });
            assertThat(events).extracting(SubscriberEventsIT::transition).containsExactly(
                    tuple(StateChangeEvents.INSTANCE_STATE_CHANGED, null, "running"),
                    tuple(StateChangeEvents.STEP_STATE_CHANGED, "pending", "active"),
                    tuple(StateChangeEvents.INSTANCE_STATE_CHANGED, "running", "waiting"),
                    tuple(StateChangeEvents.STEP_STATE_CHANGED, "active", "completed"),
                    tuple(StateChangeEvents.INSTANCE_STATE_CHANGED, "waiting", "completed"));
            for (CloudEvent event : events) {
                JsonNode json = Json.mapper().readTree(new JsonFormat().serialize(event));
                assertThat(schema(SCHEMA_OF_TYPE.get(event.getType())).validate(json)).as(event.getType()).isEmpty();
            }
        }
    }

    @Test
    void shouldWriteEachWorkspaceEventsToItsOwnTopicOnly() {
        // given two workspaces
        String suffix = UlidCreator.getMonotonicUlid().toString().toLowerCase().substring(16);
        String alpha = "alpha-" + suffix;
        String beta = "beta-" + suffix;
        String alphaInstance = UlidCreator.getMonotonicUlid().toString();
        String betaInstance = UlidCreator.getMonotonicUlid().toString();

        // when each starts an instance
        for (String workspace : List.of(alpha, beta)) {
            assertThat(client.register(workspace, PROCESS).status()).isEqualTo(201);
        }
        assertThat(client.start(alpha, alphaInstance, "subscribed", Map.of()).join().status()).isEqualTo(201);
        assertThat(client.start(beta, betaInstance, "subscribed", Map.of()).join().status()).isEqualTo(201);

        // then each workspace's topic holds that workspace's events, and no other's
        assertThat(eventsOnTopicOf(alpha, alphaInstance)).allSatisfy(event -> assertThat(StateChangeEvents.workspaceOf(event)).isEqualTo(alpha))
                .extracting(CloudEvent::getSubject).contains(alphaInstance).doesNotContain(betaInstance);
        assertThat(eventsOnTopicOf(beta, betaInstance)).allSatisfy(event -> assertThat(StateChangeEvents.workspaceOf(event)).isEqualTo(beta))
                .extracting(CloudEvent::getSubject).contains(betaInstance).doesNotContain(alphaInstance);
    }

    /** Every event on the workspace's topic, once the instance's first three (its start) are there. */
    private static List<CloudEvent> eventsOnTopicOf(String workspace, String instanceId) {
        String topic = Topics.workspaceEvents(workspace);
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", SharedKafka.bootstrapServers()))) {
            await().atMost(Duration.ofSeconds(30)).until(() -> admin.listTopics().names().get().contains(topic));
        }
        try (EventsReader reader = new EventsReader(topic)) {
            List<CloudEvent> events = new ArrayList<>();
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                events.addAll(reader.readMore());
                assertThat(events).filteredOn(event -> instanceId.equals(event.getSubject())).hasSize(3);
            });
            return events;
        }
    }

    private static Schema schema(String file) {
        return SCHEMAS.getSchema(SchemaLocation.of("https://sopline.dev/schemas/" + file));
    }

    /** The event's type and its data's {@code from} and {@code to}. */
    private static Tuple transition(CloudEvent event) {
        JsonNode data = Json.mapper().readTree(event.getData().toBytes());
        return tuple(event.getType(), data.path("from").isNull() || data.path("from").isMissingNode() ? null : data.path("from").asString(),
                data.path("to").asString());
    }

    /** A subscriber outside any group: every partition of a topic from its beginning, committed records only. */
    private static final class EventsReader implements AutoCloseable {

        private final KafkaConsumer<String, CloudEvent> consumer;

        EventsReader(String topic) {
            Properties props = new Properties();
            props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedKafka.bootstrapServers());
            props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
            consumer = new KafkaConsumer<>(props, new StringDeserializer(), new CloudEventDeserializer());
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                    .map(info -> new TopicPartition(topic, info.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
        }

        List<CloudEvent> readMore() {
            List<CloudEvent> events = new ArrayList<>();
            consumer.poll(Duration.ofMillis(200)).forEach(record -> events.add(record.value()));
            return events;
        }

        @Override
        public void close() {
            consumer.close();
        }
    }
}
