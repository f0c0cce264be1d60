package dev.sopline.engine.topology;

import static dev.sopline.engine.topology.EngineHarness.WORKSPACE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import dev.sopline.engine.api.serde.RecordSerde;
import dev.sopline.engine.state.HistoryRecord;
import dev.sopline.engine.state.HistoryStore;
import dev.sopline.engine.state.Instance;
import dev.sopline.engine.api.view.ProcessVersions;
import dev.sopline.schemas.command.CommandReply;
import dev.sopline.schemas.command.InstanceKeys;
import dev.sopline.schemas.definition.ProcessDefinition;
import dev.sopline.schemas.definition.ProcessFiles;
import dev.sopline.schemas.instance.HistoryEntry;
import dev.sopline.schemas.json.Json;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/**
 * Records written before each process version had its own key, before instances counted their data, and before a
 * history record held a whole decision's entries, still read.
 */
class PreviousFormatsTest {

    private static final String ID = "01JAAAAAAAAAAAAAAAAAAAAAAA";
    private static final String OTHER_ID = "01JBBBBBBBBBBBBBBBBBBBBBBB";

    private final EngineHarness engine = new EngineHarness();

    @AfterEach
    void close() {
        engine.close();
    }

    /** A process record as the previous format wrote it: every version under {@code <workspace>/<name>}, no format field. */
    private static byte[] allVersionsRecord(String... files) {
        Map<String, Object> versions = new LinkedHashMap<>();
        String name = null;
        for (String file : files) {
            byte[] yaml = EngineHarness.resource(file);
            ProcessDefinition definition = ((ProcessFiles.Loaded) ProcessFiles.load(yaml)).file().process();
            name = definition.name();
            versions.put(definition.version(), Map.of("definition", definition, "source", new String(yaml, StandardCharsets.UTF_8),
                    "published_at", EngineHarness.START.toString()));
        }
        return Json.mapper().writeValueAsBytes(Map.of("workspace", WORKSPACE, "name", name, "versions", versions));
    }

    @Test
    void shouldStartFromAndSplitAProcessRecordOfThePreviousFormat() {
        // given: the same record in the engine's own store and in the published definitions
        byte[] previous = allVersionsRecord("automated.yaml");
        String legacyKey = InstanceKeys.processKey(WORKSPACE, "billing");
        engine.publishDefinitionRecord(legacyKey, previous);
        KeyValueStore<String, Object> processes = engine.store(EngineTopology.PROCESSES_STORE);
        processes.put(legacyKey, Json.mapper().readValue(previous, ProcessVersions.class));

        // when: an instance starts from it, then a new version is registered
        CommandReply started = engine.start(ID, "billing", Map.of("amount", 1));
        String secondVersion = new String(EngineHarness.resource("automated.yaml"), StandardCharsets.UTF_8)
                .replace("version: \"1.0\"", "version: \"2.0\"");
        CommandReply registered = engine.register("billing-2", secondVersion.getBytes(StandardCharsets.UTF_8));

        // then: the old record is split into one record per version and removed, and both versions still start
        assertThat(started.status()).isEqualTo(201);
        assertThat(registered.status()).isEqualTo(201);
        assertThat(processes.get(legacyKey)).isNull();
        assertThat(processes.get(legacyKey + "/1.0")).isNotNull();
        assertThat(processes.get(legacyKey + "/2.0")).isNotNull();
        assertThat(engine.definitionRecords()).extracting(record -> record.key, record -> record.value == null)
                .contains(tuple(legacyKey, true), tuple(legacyKey + "/1.0", false));
        assertThat(engine.send(engine.startCommand(OTHER_ID, "billing", Map.of("amount", 2), "1.0")).status()).isEqualTo(201);
        assertThat(engine.instance(OTHER_ID).version()).isEqualTo("1.0");
        assertThat(engine.start("01JCCCCCCCCCCCCCCCCCCCCCCC", "billing", Map.of("amount", 3)).body()).extracting("version").isEqualTo("2.0");
    }

    @Test
    void shouldReadAnInstanceRecordWrittenBeforeInstancesCountedTheirData() {
        // given
        engine.register("two-step.yaml");
        engine.start(ID, "two-step", Map.of("title", "Q3 plan"));
        ObjectNode previous = Json.mapper().valueToTree(engine.instance(ID));
        previous.remove("data_bytes");

        // when
        Instance read = new RecordSerde<>(Instance.class).deserializer().deserialize("changelog", Json.mapper().writeValueAsBytes(previous));

        // then
        assertThat(read.dataBytes()).isZero();
        assertThat(read.steps()).isEqualTo(engine.instance(ID).steps());
    }

    @Test
    void shouldWriteAndReadInstancesWithoutBlocksAsBeforeStepsNamedTheirBlock() {
        // given: a 0.1 instance, and one of a 0.2 file whose steps sit in a parallel block
        engine.register("two-step.yaml");
        engine.start(ID, "two-step", Map.of("title", "Q3 plan"));
        engine.register("parallel-first.yaml");
        engine.start(OTHER_ID, "side-by-side", Map.of());

        // when
        ObjectNode stored = Json.mapper().valueToTree(engine.instance(ID));
        byte[] withBlocks = Json.mapper().writeValueAsBytes(engine.instance(OTHER_ID));
        Instance read = new RecordSerde<>(Instance.class).deserializer().deserialize("changelog", withBlocks);

        // then: a step outside blocks is stored exactly as before; a step in a block keeps its place when read back
        assertThat(stored.get("steps").get(0).propertyNames()).doesNotContain("block", "branch");
        assertThat(read.steps()).extracting(step -> step.block(), step -> step.branch())
                .containsExactly(tuple("both", "left"), tuple("both", "right"));
        assertThat(read).isEqualTo(engine.instance(OTHER_ID));
    }

    @Test
    void shouldReadAProcessRecordWithoutAFormatAsThePreviousFormat() {
        ProcessVersions read = new RecordSerde<>(ProcessVersions.class).deserializer().deserialize("definitions", allVersionsRecord("automated.yaml"));

        assertThat(read.format()).isEqualTo(ProcessVersions.ALL_VERSIONS_FORMAT);
        assertThat(read.version("1.0")).isPresent();
        assertThat(read.name()).isEqualTo("billing");
    }

    /** History entries as the previous version stored them: one bare entry per record, keyed by its number. */
    private static final String[] ONE_ENTRY_RECORDS = {
            """
            {"seq":1,"at":"2026-03-02T08:00:00Z","kind":"instance","to":"running","by":{"type":"token","id":"tok-ada","name":"ada"}}""",
            """
            {"seq":2,"at":"2026-03-02T08:00:00Z","kind":"step","step_id":"draft","from":"pending","to":"active","attempt":1,"by":{"type":"engine"}}""",
            """
            {"seq":3,"at":"2026-03-02T08:00:00Z","kind":"instance","from":"running","to":"waiting","by":{"type":"engine"}}"""};

    @Test
    @SuppressWarnings("unchecked")
    void shouldPageThroughHistoryRecordsOfThePreviousVersionAndThisOneAsOneHistory() {
        // given: an instance whose start the previous version recorded, one record per entry
        engine.register("two-step.yaml");
        engine.start(ID, "two-step", Map.of("title", "Q3 plan"));
        KeyValueStore<String, HistoryRecord> history = (KeyValueStore<String, HistoryRecord>) (Object) engine.store(EngineTopology.HISTORY_STORE);
        String prefix = HistoryStore.prefix(WORKSPACE, ID);
        List<String> written = new ArrayList<>();
        try (KeyValueIterator<String, HistoryRecord> records = history.range(prefix, prefix + "~")) {
            records.forEachRemaining(record -> written.add(record.key));
        }
        written.forEach(history::delete);
        for (int seq = 1; seq <= ONE_ENTRY_RECORDS.length; seq++) {
            engine.putStoredBytes(EngineTopology.HISTORY_STORE, prefix + "%012d".formatted(seq), ONE_ENTRY_RECORDS[seq - 1].getBytes(StandardCharsets.UTF_8));
        }

        // when: this version records the next decision
        engine.submit(ID, "two-step", "draft", Map.of("text", "draft text"));

        // then: the old entries come first and the new ones follow on, whichever page a cursor starts
        assertThat(HistoryStore.page(history, WORKSPACE, ID, 0, 500))
                .extracting(HistoryEntry::seq, HistoryEntry::stepId, HistoryEntry::to, entry -> entry.by().type())
                .containsExactly(tuple(1L, null, "running", "token"), tuple(2L, "draft", "active", "engine"), tuple(3L, null, "waiting", "engine"),
                        tuple(4L, "draft", "completed", "token"), tuple(5L, "review", "active", "engine"));
        assertThat(HistoryStore.page(history, WORKSPACE, ID, 2, 1)).extracting(HistoryEntry::seq).containsExactly(3L, 4L);
        assertThat(HistoryStore.page(history, WORKSPACE, ID, 3, 1)).extracting(HistoryEntry::seq).containsExactly(4L, 5L);
        assertThat(HistoryStore.page(history, WORKSPACE, ID, 4, 10)).extracting(HistoryEntry::seq).containsExactly(5L);
        assertThat(history.get(prefix + "000000000001").format()).isEqualTo(1);
        assertThat(history.get(prefix + "000000000005").format()).isEqualTo(HistoryRecord.FORMAT);
    }
}
