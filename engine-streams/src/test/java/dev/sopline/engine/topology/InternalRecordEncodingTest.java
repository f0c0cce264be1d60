package dev.sopline.engine.topology;

import static dev.sopline.engine.topology.EngineHarness.WORKSPACE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sopline.engine.api.serde.RecordSerde;
import dev.sopline.engine.api.topic.EngineTopics;
import dev.sopline.engine.state.Instance;
import dev.sopline.schemas.command.CommandReply;
import dev.sopline.schemas.command.InstanceKeys;
import dev.sopline.schemas.command.StartInstance;
import dev.sopline.schemas.json.Json;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The engine's internal records (commands, replies, stores and their changelogs) are Smile; what earlier versions
 * wrote as JSON is still read.
 */
class InternalRecordEncodingTest {

    private static final String ID = "01JDAAAAAAAAAAAAAAAAAAAAAA";
    private static final String TWO_STEPS = """
            engine: "0.1"
            process:
              name: two-steps
              version: "1.0"
              inputs:
                - name: customer
                  type: string
              steps:
                - id: a
                  type: automated
                  run: team.a
                  outputs:
                    - name: out
                - id: b
                  type: automated
                  run: team.b
                  outputs:
                    - name: out
            """;

    private final EngineHarness engine = new EngineHarness();

    @AfterEach
    void close() {
        engine.close();
    }

    private Instance runFirstStep() {
        engine.register("two-steps", TWO_STEPS.getBytes(StandardCharsets.UTF_8));
        engine.start(ID, "two-steps", Map.of("customer", "Ada Lovelace"));
        engine.workerResult(ID, "a", 1, Map.of("out", "ready"));
        return engine.instance(ID);
    }

    @Test
    void shouldStoreAnInstanceAsSmileInAboutHalfTheBytesOfItsJson() {
        Instance instance = runFirstStep();
        List<TestRecord<String, byte[]>> changelog = engine.records("engine-test-" + EngineTopology.INSTANCES_STORE + "-changelog");

        byte[] stored = changelog.get(changelog.size() - 1).value();
        assertThat(RecordSerde.isSmile(stored)).as("the changelog record begins with Smile's header").isTrue();
        assertThat(RecordSerde.read(stored, Instance.class)).isEqualTo(instance);
        byte[] json = Json.mapper().writeValueAsBytes(instance);
        assertThat(stored.length).as("Smile bytes against the same instance's %d JSON bytes", json.length).isLessThan(json.length * 7 / 10);
    }

    @Test
    void shouldReadAnInstanceItsPreviousVersionStoredAsJson() {
        Instance instance = runFirstStep();
        engine.putStoredBytes(EngineTopology.INSTANCES_STORE, InstanceKeys.key(WORKSPACE, ID), Json.mapper().writeValueAsBytes(instance));

        assertThat(engine.instance(ID)).isEqualTo(instance);
        engine.workerResult(ID, "b", 1, Map.of("out", "done"));
        assertThat(engine.instance(ID).state().wireName()).isEqualTo("completed");
    }

    @Test
    void shouldDecideACommandWrittenAsJsonAndAnswerInSmile() {
        engine.register("two-steps", TWO_STEPS.getBytes(StandardCharsets.UTF_8));
        StartInstance start = new StartInstance("cmd-json", WORKSPACE, ID, "two-steps", Map.of("customer", "Ada"), null, StartInstance.API, null);

        engine.publishAsJson(start);

        List<TestRecord<String, byte[]>> replies = engine.records(EngineTopics.REPLIES);
        assertThat(replies).singleElement().satisfies(reply -> {
            assertThat(RecordSerde.isSmile(reply.value())).isTrue();
            assertThat(RecordSerde.read(reply.value(), CommandReply.class).status()).isEqualTo(201);
        });
        assertThat(engine.instance(ID).inputs()).containsEntry("customer", "Ada");
    }

    record Stamped(Instant at) {}

    @Test
    void shouldKeepInstantsToTheNanosecond() {
        Instant precise = Instant.parse("2026-03-02T08:00:00.123456789Z");

        assertThat(RecordSerde.read(RecordSerde.write(new Stamped(precise)), Stamped.class).at()).isEqualTo(precise);
    }
}
