package dev.sopline.engine.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.github.f4b6a3.ulid.UlidCreator;
import dev.sopline.engine.api.query.StateUnavailableException;
import dev.sopline.engine.api.topic.EngineTopics;
import dev.sopline.engine.runtime.EngineSettings;
import dev.sopline.engine.runtime.Engine;
import dev.sopline.schemas.command.CommandReply;
import dev.sopline.schemas.command.StartInstance;
import dev.sopline.schemas.command.SubmitStep;
import dev.sopline.schemas.instance.InstanceView;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The engine decides each command at the time the broker appended it, not at the time its writer stamped it: a worker
 * or gateway whose clock is hours off moves no start, end or deadline, on a command log created before as well.
 */
class BrokerClockIT {

    private static final String WORKSPACE = "clocks";
    private static final Duration SKEW = Duration.ofHours(2);

    @Test
    void shouldDecideCommandsAtTheBrokersTimeWhateverTheirWritersClocksSay(@TempDir Path stateDir) throws Exception {
        try (EngineClient client = new EngineClient(dev.sopline.testing.SharedKafka.bootstrapServers());
             Engine engine = Engine.start(EngineFailoverIT.settings(stateDir))) {
            await().atMost(Duration.ofSeconds(90)).until(engine::isHealthy);
            assertThat(client.register(WORKSPACE, EngineClient.oneFormStep("clock-form")).status()).isEqualTo(201);
            String id = UlidCreator.getMonotonicUlid().toString();

            Instant beforeStart = Instant.now();
            CommandReply started = client.send(new StartInstance(EngineClient.commandId(), WORKSPACE, id, "clock-form", Map.of(), null,
                    StartInstance.API, null), beforeStart.minus(SKEW).toEpochMilli()).get(60, TimeUnit.SECONDS);
            Instant afterStart = Instant.now();
            assertThat(started.status()).isEqualTo(201);

            Instant beforeSubmit = Instant.now();
            CommandReply submitted = client.send(new SubmitStep(EngineClient.commandId(), WORKSPACE, id, "clock-form", "sign",
                    Map.of("ok", true), null), beforeSubmit.plus(SKEW).toEpochMilli()).get(60, TimeUnit.SECONDS);
            Instant afterSubmit = Instant.now();
            assertThat(submitted.status()).isEqualTo(200);

            // Read while the engine may still be settling its group: a store not readable yet is asked again.
            await().atMost(Duration.ofSeconds(30)).ignoreException(StateUnavailableException.class).untilAsserted(() -> {
                InstanceView instance = engine.queries().instance(WORKSPACE, id).orElseThrow();
                assertThat(instance.completedAt()).isNotNull();
                // The broker runs on this host here: its clock is the test's, give or take a commit.
                assertThat(instance.startedAt()).as("started by a writer two hours behind")
                        .isBetween(beforeStart.minusSeconds(1), afterStart.plusSeconds(1));
                assertThat(instance.completedAt()).as("ended by a writer two hours ahead")
                        .isBetween(beforeSubmit.minusSeconds(1), afterSubmit.plusSeconds(1));
            });
        }
    }

    @Test
    void shouldHaveTheBrokerStampACommandLogCreatedBeforeOnceAnEngineEnsuresItsTopics(@TempDir Path stateDir) throws Exception {
        EngineSettings settings = EngineFailoverIT.settings(stateDir);
        ConfigResource commands = new ConfigResource(ConfigResource.Type.TOPIC, EngineTopics.COMMANDS);
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, dev.sopline.testing.SharedKafka.bootstrapServers()))) {
            EngineTopics.ensure(admin, settings.partitions(), settings.topicPartitions(), settings.replication());
            try {
                // As a release before the broker's stamps created it.
                stamp(admin, commands, "CreateTime");
                await().atMost(Duration.ofSeconds(30)).until(() -> timestampType(admin, commands).equals("CreateTime"));

                EngineTopics.ensure(admin, settings.partitions(), settings.topicPartitions(), settings.replication());

                await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(timestampType(admin, commands)).isEqualTo("LogAppendTime"));
            } finally {
                stamp(admin, commands, "LogAppendTime"); // the broker is shared with the other tests of this JVM
            }
        }
    }

    private static void stamp(Admin admin, ConfigResource topic, String type) throws Exception {
        admin.incrementalAlterConfigs(Map.of(topic, List.of(new AlterConfigOp(new ConfigEntry(TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG, type),
                AlterConfigOp.OpType.SET)))).all().get(30, TimeUnit.SECONDS);
    }

    private static String timestampType(Admin admin, ConfigResource topic) throws Exception {
        return admin.describeConfigs(List.of(topic)).all().get(30, TimeUnit.SECONDS).get(topic).get(TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG).value();
    }
}
